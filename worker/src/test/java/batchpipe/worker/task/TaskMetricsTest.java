package batchpipe.worker.task;

import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.lambda.powertools.metrics.Metrics;
import software.amazon.lambda.powertools.metrics.model.DimensionSet;
import software.amazon.lambda.powertools.metrics.model.MetricUnit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

class TaskMetricsTest {
    @Test
    void publish_emitsTasksByKindAndStatusThenTotalsAndEveryDuration() {
        TaskMetrics gathered = new TaskMetrics();
        gathered.task("scan", "done", 120);
        gathered.task("scan", "done", 80);
        gathered.task("hash", "rejected", 3);
        gathered.scanned(1_000, 250_000);
        gathered.scanned(500, 100_000);
        gathered.hashed(25);

        Metrics metrics = mock(Metrics.class);
        List<Metrics> perDimension = new ArrayList<>();
        doAnswer(invocation -> {
            Metrics scoped = mock(Metrics.class);
            invocation.<Consumer<Metrics>>getArgument(0).accept(scoped);
            perDimension.add(scoped);
            return null;
        }).when(metrics).flushMetrics(any());

        gathered.publish(metrics);

        assertThat(perDimension).hasSize(2);
        for (Metrics scoped : perDimension) {
            ArgumentCaptor<DimensionSet> dimensions = ArgumentCaptor.forClass(DimensionSet.class);
            ArgumentCaptor<Double> value = ArgumentCaptor.forClass(Double.class);
            verify(scoped).addDimension(dimensions.capture());
            verify(scoped).addMetric(org.mockito.ArgumentMatchers.eq("TasksProcessed"), value.capture(), org.mockito.ArgumentMatchers.eq(MetricUnit.COUNT));
            String kind = dimensions.getValue().getDimensionValue("kind");
            assertThat(value.getValue()).isEqualTo(kind.equals("scan") ? 2.0 : 1.0);
            assertThat(dimensions.getValue().getDimensionValue("status")).isEqualTo(kind.equals("scan") ? "done" : "rejected");
        }
        verify(metrics).addMetric("EventsScanned", 1_500, MetricUnit.COUNT);
        verify(metrics).addMetric("BytesScanned", 350_000, MetricUnit.BYTES);
        verify(metrics).addMetric("HashesComputed", 25, MetricUnit.COUNT);
        verify(metrics).addMetric("TaskDuration", 120, MetricUnit.MILLISECONDS);
        verify(metrics).addMetric("TaskDuration", 80, MetricUnit.MILLISECONDS);
        verify(metrics).addMetric("TaskDuration", 3, MetricUnit.MILLISECONDS);
        verify(metrics).flush();
    }
}
