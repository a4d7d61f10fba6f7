package batchpipe.worker.scan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ParserPrimingTest {
    @Test
    void primingChunk_holdsValidMalformedAndBlankLines_andEveryPathIsFound() {
        byte[] chunk = ParserPriming.chunk();
        ChunkParser parser = new ChunkParser(ScanOptions.defaults().withCountBy(List.of("level", "status", "http.status"))
                .withMatch(new Match.FieldEquals("level", "ERROR")));
        ChunkTally tally = parser.parse(chunk, 0, chunk.length);
        assertThat(tally.lines).isEqualTo(14);
        assertThat(tally.events).isEqualTo(5);
        assertThat(tally.malformed).isEqualTo(7);
        assertThat(tally.matches).isEqualTo(1);
        assertThat(tally.counts[0].events()).as("level in every event").isEqualTo(5);
        assertThat(tally.counts[2].events()).as("http.status, first occurrence, strings and numbers").isEqualTo(2);
    }

    @Test
    void prime_runsBothParsersOverTheChunkEveryRound() {
        assertThat(ParserPriming.prime()).isEqualTo(10L * ParserPriming.ROUNDS);
    }
}
