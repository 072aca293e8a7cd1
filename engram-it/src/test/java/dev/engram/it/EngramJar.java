package dev.engram.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the packaged {@code engram} command ({@code engram-cli/target/engram.jar}) as a child JVM in
 * one working directory, with a clean environment: the parent's {@code ENGRAM_*} variables are
 * dropped and the given ones set.
 */
final class EngramJar {
  /**
   * The longest one command may take before it is killed and the test fails (a hang guard, not a
   * measurement).
   */
  private static final long MAX_MINUTES = 5;

  private final Path jar;
  private final Path workDir;
  private final Map<String, String> env;

  private EngramJar(Path jar, Path workDir, Map<String, String> env) {
    this.jar = jar;
    this.workDir = workDir;
    this.env = Map.copyOf(env);
  }

  /**
   * The jar named by the system property {@code engram.jar} (set by this module's surefire
   * configuration), run in {@code workDir} with {@code env} on top of the parent's environment
   * minus its {@code ENGRAM_*} variables.
   *
   * @throws AssertionError if the jar is missing, with the command that builds it
   */
  static EngramJar in(Path workDir, Map<String, String> env) {
    String property = System.getProperty("engram.jar");
    if (property == null || property.isBlank()) {
      throw new AssertionError(
          "system property engram.jar is not set; run these tests through Maven"
              + " (mvn -B -o -pl engram-it verify)");
    }
    Path jar = Path.of(property).toAbsolutePath().normalize();
    if (!Files.isRegularFile(jar)) {
      throw new AssertionError(
          "the engram jar is missing at "
              + jar
              + "; build it first with"
              + " mvn -B -o -q -pl engram-cli -am install -DskipTests");
    }
    return new EngramJar(jar, workDir, env);
  }

  /** The outcome of one run. */
  record Result(int exitCode, String out, String err) {
    /** Stdout as lines. */
    List<String> lines() {
      return out.lines().toList();
    }
  }

  /** Runs {@code java -jar engram.jar args...} and waits for it. */
  Result run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, "stdout", ".txt");
    Path err = Files.createTempFile(workDir, "stderr", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    Map<String, String> childEnv = pb.environment();
    childEnv.keySet().removeIf(k -> k.startsWith("ENGRAM_"));
    childEnv.putAll(new HashMap<>(env));
    Process process = pb.start();
    if (!process.waitFor(MAX_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(
          "engram "
              + String.join(" ", args)
              + " did not finish within "
              + MAX_MINUTES
              + " minutes; stderr so far:\n"
              + Files.readString(err, StandardCharsets.UTF_8));
    }
    Result result =
        new Result(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return result;
  }

  /**
   * Starts {@code java -jar engram.jar args...} without waiting (for {@code engram serve}); stdout
   * and stderr go to files in the working directory, read with {@link Running#awaitLine} and {@link
   * Running#err}.
   */
  Running start(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    // Restarted again and again by the crash tests: C1 only and the serial collector start in about
    // half the CPU.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, "serve-stdout", ".txt");
    Path err = Files.createTempFile(workDir, "serve-stderr", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    Map<String, String> childEnv = pb.environment();
    childEnv.keySet().removeIf(k -> k.startsWith("ENGRAM_"));
    childEnv.putAll(new HashMap<>(env));
    return new Running(pb.start(), String.join(" ", args), out, err);
  }

  /** A started command; {@link #close} kills it if it still runs. */
  static final class Running implements AutoCloseable {
    private final Process process;
    private final String args;
    private final Path out;
    private final Path err;

    private Running(Process process, String args, Path out, Path err) {
      this.process = process;
      this.args = args;
      this.out = out;
      this.err = err;
    }

    Process process() {
      return process;
    }

    /** Stdout so far. */
    String out() throws IOException {
      return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Stderr so far. */
    String err() throws IOException {
      return Files.readString(err, StandardCharsets.UTF_8);
    }

    /**
     * Waits until a stdout line starts with {@code prefix} and returns it.
     *
     * @throws AssertionError if the process exits first or the line does not come within {@code
     *     timeout}
     */
    String awaitLine(String prefix, java.time.Duration timeout)
        throws IOException, InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        for (String line : out().lines().toList()) {
          if (line.startsWith(prefix)) {
            return line;
          }
        }
        if (!process.isAlive()) {
          throw new AssertionError(
              "engram "
                  + args
                  + " exited with "
                  + process.exitValue()
                  + " before printing '"
                  + prefix
                  + "'; stderr:\n"
                  + tail(err()));
        }
        Thread.sleep(50);
      }
      throw new AssertionError(
          "engram "
              + args
              + " printed no '"
              + prefix
              + "' within "
              + timeout
              + "; stderr:\n"
              + tail(err()));
    }

    /** The last 4,000 characters of a text. */
    static String tail(String text) {
      return text.length() <= 4000 ? text : "..." + text.substring(text.length() - 4000);
    }

    @Override
    public void close() throws InterruptedException {
      if (process.isAlive()) {
        process.destroyForcibly().waitFor();
      }
    }
  }

  /** Runs and fails with the command's stderr unless it exits with 0. */
  Result ok(String... args) throws IOException, InterruptedException {
    Result r = run(args);
    if (r.exitCode() != 0) {
      throw new AssertionError(
          "engram "
              + String.join(" ", args)
              + " exited with "
              + r.exitCode()
              + ":\n"
              + r.err()
              + r.out());
    }
    return r;
  }
}
