package dev.engram.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code engram} command: long-term memory for LLM agents, on the embedded store in a data
 * directory.
 *
 * <p>Exit codes: 0 success; 2 bad input (invalid options or values, malformed JSON, unknown ids,
 * unreadable files), with the reason on stderr; 1 any other failure. Results go to stdout, as text
 * or, with {@code --json}, as JSON in mem0's shapes; logs and progress bars go to stderr.
 */
@Command(
    name = "engram",
    mixinStandardHelpOptions = true,
    versionProvider = EngramCommand.Version.class,
    description = "Long-term memory for LLM agents (after Mem0), stored in a local data directory.",
    subcommands = {
      DemoCommand.class,
      AddCommand.class,
      SearchCommand.class,
      ListCommand.class,
      GetCommand.class,
      UpdateCommand.class,
      DeleteCommand.class,
      DeleteAllCommand.class,
      HistoryCommand.class,
      ImportCommand.class,
      ExportCommand.class,
      PurgeExpiredCommand.class,
      ResetCommand.class,
      GraphCommand.class,
      ServeCommand.class,
      KeysCommand.class,
      McpCommand.class,
      BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class EngramCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** Runs the command line and exits the JVM with its exit code. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new EngramCommand()).execute(args));
  }

  /** Without a subcommand: prints the usage on stderr and exits with 2. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("engram: missing command");
    spec.commandLine().usage(spec.commandLine().getErr());
    return BaseCommand.EXIT_BAD_INPUT;
  }

  /** The version from the jar manifest, or "development" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = EngramCommand.class.getPackage().getImplementationVersion();
      return new String[] {"engram " + (v == null ? "development" : v)};
    }
  }
}
