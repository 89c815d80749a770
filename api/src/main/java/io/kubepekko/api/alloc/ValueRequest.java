package io.kubepekko.api.alloc;

/**
 * One value a write needs from a pool.
 *
 * @param pool the pool's name ({@link ValuePool#name()})
 * @param value the value asked for by number, or {@code null} for "any free one"
 */
public record ValueRequest(String pool, String value) {

    public static ValueRequest any(String pool) {
        return new ValueRequest(pool, null);
    }

    public static ValueRequest specific(String pool, String value) {
        return new ValueRequest(pool, value);
    }
}
