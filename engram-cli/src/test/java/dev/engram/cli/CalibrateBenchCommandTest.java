package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.onnx.OnnxEmbedders;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * {@code engram bench calibrate} fits the model it is asked for: the in-process model {@code
 * --embedder} names, or the default one (both real ONNX models, on the mini LoCoMo file).
 */
class CalibrateBenchCommandTest extends CliTestCase {
  private Properties fit(Path out, String... embedder) throws Exception {
    String[] args = new String[6 + embedder.length];
    args[0] = "--model";
    args[1] = "onnx";
    System.arraycopy(embedder, 0, args, 2, embedder.length);
    args[2 + embedder.length] = "--data";
    args[3 + embedder.length] = Cli.benchMiniLocomo();
    args[4 + embedder.length] = "--out";
    args[5 + embedder.length] = out.toString();
    Cli.Result r = Cli.raw(prepend("bench", prepend("calibrate", args)));
    assertThat(r.exitCode()).as(r.err()).isZero();
    Properties fitted = new Properties();
    try (InputStream in = Files.newInputStream(out)) {
      fitted.load(in);
    }
    return fitted;
  }

  private static String[] prepend(String first, String[] rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  @Test
  void theEmbedderOptionChoosesTheModelThatIsFitted() throws Exception {
    Path miniLm = dir.resolve("minilm.properties");
    Path bge = dir.resolve("bge.properties");
    Properties fittedMiniLm = fit(miniLm, "--embedder", OnnxEmbedders.MINILM);
    Properties fittedDefault = fit(bge);
    assertThat(Files.readString(miniLm))
        .contains("engram bench calibrate --model onnx --embedder " + OnnxEmbedders.MINILM);
    assertThat(Files.readString(bge)).doesNotContain("--embedder");
    // the same pairs, another model's cosines: another map
    assertThat(Double.parseDouble(fittedMiniLm.getProperty("slope")))
        .isNotEqualTo(Double.parseDouble(fittedDefault.getProperty("slope")));
  }

  @Test
  void theHashModelRefusesAnEmbedderName() {
    Cli.Result r =
        Cli.raw(
            "bench",
            "calibrate",
            "--model",
            "hash",
            "--embedder",
            OnnxEmbedders.MINILM,
            "--data",
            Cli.benchMiniLocomo(),
            "--out",
            dir.resolve("hash.properties").toString());
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err()).contains("--embedder names an in-process model");
    assertThat(dir.resolve("hash.properties")).doesNotExist();
  }
}
