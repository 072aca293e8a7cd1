package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.server.api.ConsoleApi;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import dev.engram.testing.HashEmbedder;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real browser: Debian's headless Chromium driven by chromedriver (Selenium),
 * against a real server on real embedded storage with graph memory on. Signs in (a wrong key is
 * refused), adds, searches, edits, deletes, reads a history (each entry naming its pipeline), opens
 * the graph and moves its as-of control, lists activity; saves a screenshot of each main screen
 * under docs/console/; and checks that the page never requests anything outside its own origin.
 */
class ConsoleBrowserTest {
  private static final Path SCREENSHOTS = Path.of("..", "docs", "console");

  @TempDir static Path dir;
  static Memory memory;
  static ServerDatabase db;
  static EngramServer server;
  static String key;
  static ChromeDriver browser;
  static WebDriverWait wait;

  @BeforeAll
  static void start() {
    HashEmbedder embedder = new HashEmbedder();
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, embedder.dimension()))
            .embedder(embedder)
            .graph(OfflineGraphExtractor.create())
            .build();
    db = ServerDatabase.open(dir);
    SqliteApiKeyStore keys = new SqliteApiKeyStore(db, Clock.systemUTC(), false);
    key = keys.create("acme", KeyRole.ADMIN, "console").secret();
    server =
        EngramServer.builder(memory)
            .settings(ServerSettings.builder().port(0).build())
            .keys(keys)
            .events(new SqliteAddEventStore(db, false))
            .build()
            .start();
    Memory acme = memory.forTenant("acme");
    acme.add(
        AddRequest.builder(Scope.user("alice"))
            .message(Message.user("Alice works at Acme with Bob").withName("Alice"))
            .timestamp(Instant.parse("2024-05-01T10:00:00Z"))
            .infer(false)
            .build());
    acme.add(
        AddRequest.builder(Scope.user("alice"))
            .message(Message.user("I adopted a puppy called Max").withName("Alice"))
            .timestamp(Instant.parse("2024-06-01T10:00:00Z"))
            .infer(false)
            .build());

    ChromeOptions options = new ChromeOptions();
    options.setBinary(new File("/usr/bin/chromium"));
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1366,900",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File("/usr/bin/chromedriver"))
            .usingAnyFreePort()
            .build();
    browser = new ChromeDriver(service, options);
    wait = new WebDriverWait(browser, Duration.ofSeconds(20));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    server.close();
    db.close();
    memory.close();
  }

  static String base() {
    return "http://127.0.0.1:" + server.port();
  }

  @Test
  void aUserSignsInAndSeesSearchesCorrectsAndAuditsMemories() throws Exception {
    browser.get(base() + "/");
    WebElement keyInput =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key")));
    screenshot("signin");

    keyInput.sendKeys("eng_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    browser.findElement(By.id("signin-button")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("signin-error"), "refused"));

    keyInput = browser.findElement(By.id("api-key"));
    keyInput.clear();
    keyInput.sendKeys(key);
    browser.findElement(By.id("signin-button")).click();
    WebElement scopes = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("scopes")));
    assertThat(scopes.getText()).contains("alice").contains("user");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tenant"), "acme"));
    screenshot("scopes");

    // Add from the scopes page (infer off), then open the scope.
    WebElement scopeInput = browser.findElement(By.id("add-scope"));
    scopeInput.clear();
    scopeInput.sendKeys("user:alice");
    browser.findElement(By.id("add-text")).sendKeys("Alice loves green tea");
    browser.findElement(By.id("add-button")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "Added"));
    browser.get(base() + "/#/memories?scope=user:alice");
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "3 memories"));
    assertThat(browser.findElement(By.tagName("main")).getText()).contains("Alice loves green tea");
    screenshot("memories");

    // Search with the explain breakdown.
    browser.findElement(By.id("query")).sendKeys("puppy");
    browser.findElement(By.id("explain")).click();
    browser.findElement(By.id("search-button")).click();
    WebElement results =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#results table")));
    assertThat(results.findElements(By.cssSelector("tbody tr")).get(0).getText())
        .contains("puppy called Max");
    assertThat(results.findElement(By.cssSelector(".explain")).getText()).contains("fused");
    screenshot("search");

    // Filter with mem0's filter form, built with the helper.
    browser.findElement(By.id("helper-field")).sendKeys("memory");
    new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("helper-op")))
        .selectByValue("contains");
    browser.findElement(By.id("helper-value")).sendKeys("tea");
    browser.findElement(By.id("helper-add")).click();
    assertThat(browser.findElement(By.id("filter")).getAttribute("value"))
        .isEqualTo("{\"memory\":{\"contains\":\"tea\"}}");
    browser.findElement(By.id("filter")).submit();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "1 memories"));

    // Open one memory, edit it, read its history.
    browser.findElement(By.linkText("Alice loves green tea")).click();
    WebElement text = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("edit-text")));
    text.clear();
    text.sendKeys("Alice loves jasmine tea");
    browser.findElement(By.id("save-button")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("history"), "UPDATE"));
    String history = browser.findElement(By.id("history")).getText();
    assertThat(history)
        .contains("ADD")
        .contains("UPDATE")
        .contains("Alice loves green tea")
        .contains("Alice loves jasmine tea");
    // Each entry names the pipeline that made it: the console's add with infer off, then the edit.
    List<WebElement> entries = browser.findElements(By.cssSelector("#history li"));
    assertThat(entries).hasSize(2);
    assertThat(entries.get(0).getText()).contains("ADD").contains("by raw");
    assertThat(entries.get(1).getText()).contains("UPDATE").contains("by update");
    assertThat(browser.findElements(By.cssSelector("#history .pipeline code")))
        .extracting(WebElement::getText)
        .containsExactly("raw", "update");
    assertThat(browser.findElement(By.id("provenance")).getText()).isNotBlank();
    screenshot("memory");

    // Delete it, confirming.
    browser.findElement(By.id("delete-button")).click();
    wait.until(ExpectedConditions.alertIsPresent()).accept();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "2 memories"));
    assertThat(
            memory.forTenant("acme").list(dev.engram.ListRequest.of(Scope.user("alice"))).items())
        .extracting(dev.engram.MemoryItem::text)
        .doesNotContain("Alice loves jasmine tea");

    // The graph around Alice, then as of a date before anything was said.
    browser.get(base() + "/#/graph?scope=user:alice&entity=Alice&as_of=&all=false");
    WebElement edge =
        wait.until(
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("svg.graph .edge[aria-label='Alice related_to Acme']")));
    edge.click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("edge-detail"), "Alice works at Acme"));
    screenshot("graph");
    WebElement asOf = browser.findElement(By.id("graph-asof"));
    ((JavascriptExecutor) browser)
        .executeScript(
            "arguments[0].value = '2024-01-01T00:00'; arguments[0].dispatchEvent(new Event('change'));",
            asOf);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("graph-empty")));
    ((JavascriptExecutor) browser)
        .executeScript(
            "arguments[0].value = '2024-05-15T00:00'; arguments[0].dispatchEvent(new Event('change'));",
            browser.findElement(By.id("graph-asof")));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("svg.graph .edge")));
    assertThat(browser.findElement(By.cssSelector("svg.graph")).getText()).doesNotContain("Max");

    // Activity: the console's add is an event.
    browser.findElement(By.linkText("Activity")).click();
    WebElement events = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("events")));
    assertThat(events.getText()).contains("SUCCEEDED").contains("Alice loves green tea");
    screenshot("activity");

    // Bulk delete of a scope, confirmed.
    memory
        .forTenant("acme")
        .add(
            AddRequest.builder(Scope.user("carol"))
                .message(Message.user("Carol skis"))
                .infer(false)
                .build());
    browser.get(base() + "/#/memories?scope=user:carol");
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "1 memories"));
    browser.findElement(By.id("delete-scope")).click();
    wait.until(ExpectedConditions.alertIsPresent()).accept();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("scopes")));
    assertThat(
            memory.forTenant("acme").list(dev.engram.ListRequest.of(Scope.user("carol"))).items())
        .isEmpty();

    // Nothing the page loaded came from another origin.
    @SuppressWarnings("unchecked")
    List<String> loaded =
        (List<String>)
            ((JavascriptExecutor) browser)
                .executeScript(
                    "return performance.getEntriesByType('resource').map(e => e.name)"
                        + ".concat(performance.getEntriesByType('navigation').map(e => e.name));");
    assertThat(loaded).isNotEmpty().allSatisfy(url -> assertThat(url).startsWith(base() + "/"));
  }

  @Test
  void thePageIsServedWithAPolicyThatForbidsOtherOrigins() throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(base() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Security-Policy"))
        .contains(ConsoleApi.CONTENT_SECURITY_POLICY);
    assertThat(r.body()).doesNotContain("http://").doesNotContain("https://");
    for (String file : List.of("app.js", "app.css")) {
      String body =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(base() + "/console/" + file)).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(body).as(file).doesNotContainPattern("https?://(?!www\\.w3\\.org/2000/svg)");
    }
  }

  private static void screenshot(String name) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(
        shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }
}
