package dev.engram.embedded;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a test main class in a child JVM with this JVM's class path; its stderr goes to a file.
 */
final class ChildJvm {
  private ChildJvm() {}

  /**
   * Starts {@code mainClass} with {@code args}.
   *
   * @param workDir a temporary directory for the child's stderr and SQLite's native library
   */
  static Process start(Path workDir, Class<?> mainClass, String... args) throws IOException {
    Path tmp = Files.createDirectories(workDir.resolve("child-tmp"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Djava.io.tmpdir=" + tmp);
    command.add("-Dorg.sqlite.tmpdir=" + tmp);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(stderrFile(workDir)));
    return pb.start();
  }

  /** Where the children's stderr goes. */
  static File stderrFile(Path workDir) {
    return workDir.resolve("child-stderr.log").toFile();
  }

  /** The children's stderr so far, for failure messages. */
  static String stderr(Path workDir) {
    try {
      Path f = stderrFile(workDir).toPath();
      return Files.exists(f) ? Files.readString(f) : "";
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
