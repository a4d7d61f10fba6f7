package batchpipe.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TargetTest {
    @Test
    void atLeastHoldsAtAndAboveTheLimit() {
        assertThat(Target.atLeast("scan vs node", "x", 2.5, 2.5).result()).isEqualTo(Target.Result.PASS);
        assertThat(Target.atLeast("scan vs node", "x", 3.0, 2.5).margin()).isEqualTo("+20%");
        Target short_ = Target.atLeast("scan vs node", "x", 2.0, 2.5);
        assertThat(short_.result()).isEqualTo(Target.Result.MISS);
        assertThat(short_.margin()).isEqualTo("-20%");
        assertThat(short_.goal()).isEqualTo(">= 2.50x");
        assertThat(short_.ratioText()).isEqualTo("2.00x");
    }

    @Test
    void atMostHoldsAtAndBelowTheLimit() {
        assertThat(Target.atMost("hash vs C", "x", 1.15, 1.15).result()).isEqualTo(Target.Result.PASS);
        Target over = Target.atMost("hash vs C", "x", 1.265, 1.15);
        assertThat(over.result()).isEqualTo(Target.Result.MISS);
        assertThat(over.margin()).isEqualTo("-9%");
        assertThat(over.goal()).isEqualTo("<= 1.15x");
    }

    @Test
    void aSkippedTargetIsNeitherHeldNorMissedAndSaysWhy() {
        Target t = Target.skipped("cold start", Target.Bound.AT_MOST, 2.0, "not measured: no harness");
        assertThat(t.result()).isEqualTo(Target.Result.SKIPPED);
        assertThat(t.margin()).isEqualTo("not measured: no harness");
        assertThat(t.ratioText()).isEqualTo("-");
    }

    @Test
    void aCheckPassesOnlyWhenItSucceeded() {
        assertThat(Target.check("memory", "ok", true, "succeeds").result()).isEqualTo(Target.Result.PASS);
        Target failed = Target.check("memory", "exit 1", false, "succeeds");
        assertThat(failed.result()).isEqualTo(Target.Result.MISS);
        assertThat(failed.goal()).isEqualTo("succeeds");
        assertThat(failed.ratioText()).isEqualTo("no");
    }
}
