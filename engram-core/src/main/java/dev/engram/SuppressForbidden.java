package dev.engram;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Allows, in the element it marks, a call that the build's forbidden-apis check refuses in main
 * code: reading the system clock ({@code Instant.now()}, {@code Clock.systemUTC()}, {@code
 * System.currentTimeMillis()}, {@code new Date()}). Time comes from the injected clock; the only
 * places that read the system clock are the builders' defaults and the applications' composition
 * roots, each marked with this annotation and a reason. Kept in class files, where the check reads
 * it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface SuppressForbidden {
  /** Why the system clock is read here. */
  String reason();
}
