package batchpipe.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PeersTest {
    @Test
    void onPath_findsOnlyExecutableFilesInPathDirectories(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.writeString(bin.resolve("node"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(bin.resolve("node"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(bin.resolve("zstd"), "not executable");
        Peers peers = new Peers(Map.of("PATH", "::" + dir.resolve("missing") + ":" + bin));
        assertThat(peers.onPath("node")).isTrue();
        assertThat(peers.onPath("zstd")).isFalse();
        assertThat(peers.onPath("python3")).isFalse();
        assertThat(new Peers(Map.of()).onPath("node")).isFalse();
    }

    @Test
    void cBcrypt_twiceAtOnceRunsTwoCopiesOfAnInProcessTimer() {
        Peers.CBcrypt inProcess = new Peers.CBcrypt("C", List.of("/usr/bin/python3", "-c", "print('it''s')"), true);
        assertThat(Shell.display(inProcess.twiceAtOnce()))
                .isEqualTo("'/usr/bin/python3' -c 'print('\\''it'\\'''\\''s'\\'')' & '/usr/bin/python3' -c 'print('\\''it'\\'''\\''s'\\'')' & wait");
        assertThat(inProcess.display()).isEqualTo("/usr/bin/python3 -c \"print('it''s')\"");
        assertThat(new Peers.CBcrypt("htpasswd", Shell.bash("htpasswd x"), false).twiceAtOnce()).isNull();
    }
}
