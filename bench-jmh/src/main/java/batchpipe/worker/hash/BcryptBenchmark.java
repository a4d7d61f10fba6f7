package batchpipe.worker.hash;

import batchpipe.worker.benchmark.MillisecondsPerOperation;
import org.mindrot.jbcrypt.BCrypt;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.function.BinaryOperator;
import java.util.function.IntFunction;

/**
 * One bcrypt hash, as {@link HashExecutor} computes each password of a hash task, for each bcrypt
 * implementation. The salt is made once at setup: HashExecutor makes a new one per hash, but that costs
 * microseconds next to the hash's milliseconds, and keeping it out leaves only the kernel in a profile.
 *
 * <p>Another implementation joins by adding its name to {@link #implementation} and one case to
 * {@link #implementationNamed}; setup checks its hashes against jBCrypt's before any is timed.
 */
public class BcryptBenchmark extends MillisecondsPerOperation {

    /**
     * {@code batchpipe}: the worker's own kernel ({@link Bcrypt}); {@code jbcrypt}: org.mindrot jBCrypt
     * 0.4, which it replaced and which still checks its hashes.
     */
    @Param({"batchpipe", "jbcrypt"})
    public String implementation;

    /** 10: what the pipeline and the published figures use. 4: 64 times cheaper, for a quick look. */
    @Param({"10", "4"})
    public int cost;

    /** A password as a hash task generates them: prefix and six-digit index. */
    private final String password = "password_000001";
    private BcryptImplementation bcrypt;
    private String salt;

    /** How one implementation makes a salt for a cost and hashes a password with a salt. */
    record BcryptImplementation(IntFunction<String> gensalt, BinaryOperator<String> hashpw) {
    }

    static BcryptImplementation implementationNamed(String name) {
        return switch (name) {
            case "batchpipe" -> new BcryptImplementation(Bcrypt::gensalt, Bcrypt::hashpw);
            case "jbcrypt" -> new BcryptImplementation(BCrypt::gensalt, BCrypt::hashpw);
            default -> throw new IllegalArgumentException("unknown bcrypt implementation '" + name + "'");
        };
    }

    @Setup
    public void chooseImplementation() {
        bcrypt = implementationNamed(implementation);
        salt = bcrypt.gensalt().apply(cost);
        requireSameHashAsJbcrypt();
    }

    /**
     * A fast but wrong kernel must not produce a figure. Compared past the version prefix: $2a$ and $2b$
     * hash passwords this short identically, and jBCrypt 0.4 takes only $2a$ salts.
     */
    private void requireSameHashAsJbcrypt() {
        String hash = bcrypt.hashpw().apply(password, salt);
        String expected = BCrypt.hashpw(password, "$2a$" + salt.substring(4));
        if (!hash.substring(4).equals(expected.substring(4))) {
            throw new IllegalStateException(implementation + " hashed '" + password + "' with salt " + salt
                    + " to " + hash + "; jBCrypt gives " + expected);
        }
    }

    @Benchmark
    public String hash() {
        return bcrypt.hashpw().apply(password, salt);
    }
}
