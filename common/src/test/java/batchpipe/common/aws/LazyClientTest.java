package batchpipe.common.aws;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class LazyClientTest {

    @Test
    void get_buildsOnFirstUseOnlyAndReusesTheClient() {
        AtomicInteger builds = new AtomicInteger();
        LazyClient<Object> lazy = LazyClient.of(() -> {
            builds.incrementAndGet();
            return new Object();
        });

        assertThat(lazy.isBuilt()).isFalse();
        assertThat(builds).hasValue(0);
        Object first = lazy.get();

        assertThat(lazy.get()).isSameAs(first);
        assertThat(lazy.isBuilt()).isTrue();
        assertThat(builds).hasValue(1);
    }

    @Test
    void get_fromManyThreadsAtOnce_buildsOneClient() throws Exception {
        AtomicInteger builds = new AtomicInteger();
        LazyClient<Object> lazy = LazyClient.of(() -> {
            builds.incrementAndGet();
            return new Object();
        });
        CountDownLatch start = new CountDownLatch(1);
        List<Object> seen = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                seen.add(lazy.get());
            }));
        }
        start.countDown();
        for (Thread t : threads) t.join();

        assertThat(builds).hasValue(1);
        assertThat(seen).hasSize(8).allSatisfy(o -> assertThat(o).isSameAs(seen.get(0)));
    }

    @Test
    void built_isAlreadyBuilt() {
        Object client = new Object();
        LazyClient<Object> lazy = LazyClient.built(client);

        assertThat(lazy.isBuilt()).isTrue();
        assertThat(lazy.get()).isSameAs(client);
    }
}
