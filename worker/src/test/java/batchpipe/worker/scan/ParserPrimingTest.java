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
        assertThat(tally.lines).isEqualTo(75);
        assertThat(tally.events).isEqualTo(6);
        assertThat(tally.malformed).as("7 plus one line per malformed kind and per kind of invalid UTF-8 at four places").isEqualTo(67);
        assertThat(tally.matches).isEqualTo(1);
        assertThat(tally.counts[0].events()).as("level in every event").isEqualTo(6);
        assertThat(tally.counts[2].events()).as("http.status, first occurrence, strings and numbers").isEqualTo(2);
    }

    @Test
    void primingChunk_everyLineGetsTheReferenceValidatorsVerdict() {
        byte[] chunk = ParserPriming.chunk();
        JsonLineValidator validator = new JsonLineValidator();
        ReferenceLineValidator reference = new ReferenceLineValidator();
        int malformed = 0;
        for (int start = 0; start < chunk.length; ) {
            int newline = ChunkParser.indexOfNewline(chunk, start, chunk.length);
            int verdict = reference.scanLine(chunk, start, newline);
            assertThat(validator.scanLine(chunk, start, newline)).as("line at byte %d", start).isEqualTo(verdict);
            if (verdict == ReferenceLineValidator.MALFORMED) malformed++;
            start = newline + 1;
        }
        assertThat(malformed).isEqualTo(67);
        for (byte[] tail : ParserPriming.tails()) {
            assertThat(reference.scanLine(tail, 0, tail.length)).isEqualTo(ReferenceLineValidator.OBJECT);
            assertThat(validator.scanLine(tail, 0, tail.length)).isEqualTo(ReferenceLineValidator.OBJECT);
        }
    }

    @Test
    void prime_runsBothParsersOverTheChunkEveryRound() {
        assertThat(ParserPriming.prime()).as("6 events in the chunk and 5 tails, for each of 2 parsers").isEqualTo(22L * ParserPriming.ROUNDS);
    }
}
