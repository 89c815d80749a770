package io.kubepekko.api.status;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class FailuresTest {

    @Test
    void unwrapsNestedCompletionAndExecutionWrappers() {
        IllegalStateException root = new IllegalStateException("boom");
        Throwable wrapped =
                new CompletionException(new ExecutionException(new CompletionException(root)));
        assertSame(root, Failures.unwrap(wrapped));
    }

    @Test
    void keepsAFailureThatIsNoWrapper() {
        ApiException api = new ApiException(ApiStatus.badRequest("bad"));
        assertSame(api, Failures.unwrap(api));
    }

    @Test
    void keepsAWrapperWithoutACause() {
        CompletionException empty = new CompletionException("no cause", null);
        assertSame(empty, Failures.unwrap(empty));
    }

    @Test
    void stopsAtTheFirstCauseThatIsNoWrapper() {
        IllegalStateException inner = new IllegalStateException("inner");
        RuntimeException outer = new RuntimeException(inner);
        assertSame(outer, Failures.unwrap(new CompletionException(outer)));
    }
}
