package batchpipe.local.sweep;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Detection and caps against fake /proc files and fake cgroup folders (the tests must not touch the machine's). */
class CpuCgroupsTest {
    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void v1_capsUnderTheProcessesOwnCgroupWithQuotaPeriodAndMemoryLimit() throws IOException {
        Path cpuMount = Files.createDirectories(dir.resolve("cpu"));
        Path memoryMount = Files.createDirectories(dir.resolve("memory"));
        Path ownMemory = Files.createDirectories(memoryMount.resolve("jobs/42"));
        Path mounts = file("mounts", "tmpfs /sys/fs/cgroup tmpfs rw 0 0\n"
                + "cgroup " + cpuMount + " cgroup rw,relatime,cpu 0 0\n"
                + "cgroup " + memoryMount + " cgroup rw,relatime,memory 0 0\n"
                + "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n");
        Path self = file("cgroup", "4:memory:/jobs/42\n2:cpuacct:/\n1:cpu:/\n0::/\n");

        CpuCgroups.Support support = CpuCgroups.detect(self, mounts);

        assertThat(support.available()).isTrue();
        assertThat(support.version()).isEqualTo(1);
        assertThat(support.cpuDir()).isEqualTo(cpuMount);
        assertThat(support.memoryDir()).isEqualTo(ownMemory);
        CpuCgroups.Cap cap = support.create("sweep-885-i0", 885 / 1769.0, 885L << 20);
        assertThat(Files.readString(cpuMount.resolve("sweep-885-i0/cpu.cfs_period_us"))).isEqualTo("100000");
        assertThat(Files.readString(cpuMount.resolve("sweep-885-i0/cpu.cfs_quota_us"))).isEqualTo("50028");
        assertThat(Files.readString(ownMemory.resolve("sweep-885-i0/memory.limit_in_bytes"))).isEqualTo(Long.toString(885L << 20));
        assertThat(cap.procsFiles()).containsExactly(cpuMount.resolve("sweep-885-i0/cgroup.procs"), ownMemory.resolve("sweep-885-i0/cgroup.procs"));
        assertThat(cap.launcher()).startsWith("/bin/sh", "-c").contains("2", cpuMount.resolve("sweep-885-i0/cgroup.procs").toString());

        Files.writeString(cpuMount.resolve("sweep-885-i0/cpu.stat"), "nr_periods 364\nnr_throttled 266\nthrottled_time 17500000000\n");
        assertThat(cap.throttling()).isEqualTo(new CpuCgroups.Throttling(364, 266, 17.5));
        cap.close();
        assertThat(cpuMount.resolve("sweep-885-i0")).doesNotExist();
        assertThat(ownMemory.resolve("sweep-885-i0")).doesNotExist();
    }

    @Test
    void v2_writesCpuMaxAndMemoryMaxInOneChildOfItsOwnCgroup() throws IOException {
        Path unified = Files.createDirectories(dir.resolve("unified"));
        Path own = Files.createDirectories(unified.resolve("user.slice/batchpipe"));
        Files.writeString(own.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        Files.writeString(own.resolve("cgroup.subtree_control"), "cpu memory\n");
        Path mounts = file("mounts", "cgroup2 " + unified + " cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n");
        Path self = file("cgroup", "0::/user.slice/batchpipe\n");

        CpuCgroups.Support support = CpuCgroups.detect(self, mounts);

        assertThat(support.version()).isEqualTo(2);
        assertThat(support.cpuDir()).isEqualTo(own);
        try (CpuCgroups.Cap cap = support.create("sweep-3538-i0", 3538 / 1769.0, 3538L << 20)) {
            assertThat(Files.readString(own.resolve("sweep-3538-i0/cpu.max"))).isEqualTo("200000 100000");
            assertThat(Files.readString(own.resolve("sweep-3538-i0/memory.max"))).isEqualTo(Long.toString(3538L << 20));
            assertThat(cap.procsFiles()).containsExactly(own.resolve("sweep-3538-i0/cgroup.procs"));
            Files.writeString(own.resolve("sweep-3538-i0/cpu.stat"), "usage_usec 1000\nnr_periods 10\nnr_throttled 3\nthrottled_usec 250000\n");
            assertThat(cap.throttling()).isEqualTo(new CpuCgroups.Throttling(10, 3, 0.25));
        }
        assertThat(own.resolve("sweep-3538-i0")).doesNotExist();
    }

    @Test
    void v2_enablesCpuForItsChildrenWhenTheParentHasNotYet() throws IOException {
        Path unified = Files.createDirectories(dir.resolve("unified"));
        Files.writeString(unified.resolve("cgroup.controllers"), "cpu memory\n");
        Files.writeString(unified.resolve("cgroup.subtree_control"), "");
        Path mounts = file("mounts", "cgroup2 " + unified + " cgroup2 rw 0 0\n");

        CpuCgroups.Support support = CpuCgroups.detect(file("cgroup", "0::/\n"), mounts);

        assertThat(support.available()).isTrue();
        assertThat(Files.readString(unified.resolve("cgroup.subtree_control"))).isEqualTo("+cpu +memory");
    }

    @Test
    void noCpuController_isUnavailableAndSaysWhy() throws IOException {
        // This machine's v2 hierarchy, without the v1 cpu mount: no cpu among its controllers.
        Path unified = Files.createDirectories(dir.resolve("unified"));
        Files.writeString(unified.resolve("cgroup.controllers"), "pids\n");
        Path mounts = file("mounts", "cgroup " + dir.resolve("memory") + " cgroup rw,memory 0 0\ncgroup2 " + unified + " cgroup2 rw 0 0\n");

        CpuCgroups.Support support = CpuCgroups.detect(file("cgroup", "4:memory:/\n0::/\n"), mounts);

        assertThat(support.available()).isFalse();
        assertThat(support.describe()).startsWith("CPU not capped: ").contains("offers no cpu controller");
        assertThatThrownBy(() -> support.create("x", 1, 1)).hasMessageContaining("no cgroups");
    }

    @Test
    void noCgroupMountsAtAll_isUnavailable() throws IOException {
        CpuCgroups.Support support = CpuCgroups.detect(file("cgroup", "0::/\n"), file("mounts", "proc /proc proc rw 0 0\n"));
        assertThat(support.unavailable()).contains("no cgroup hierarchy with the cpu controller");
    }

    @Test
    void create_refusesANameThatCouldLeaveTheFolder() throws IOException {
        Path cpuMount = Files.createDirectories(dir.resolve("cpu"));
        CpuCgroups.Support support = CpuCgroups.detect(file("cgroup", "1:cpu:/\n"), file("mounts", "cgroup " + cpuMount + " cgroup rw,cpu 0 0\n"));
        assertThatThrownBy(() -> support.create("../escape", 1, 1)).hasMessageContaining("is not a plain folder name");
        assertThat(List.of(support.cpuDir().toFile().list())).isEmpty();
    }
}
