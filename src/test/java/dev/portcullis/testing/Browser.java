package dev.portcullis.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A browser ({@link BrowserSetup#chromium}) for the tests of Portcullis's own pages; screenshots go to
 * target/screenshots/.
 */
public final class Browser implements AutoCloseable {

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final WebDriver driver;
    private final WebDriverWait wait;

    public Browser(String language) {
        driver = BrowserSetup.chromium(language);
        wait = new WebDriverWait(driver, Duration.ofSeconds(20));
    }

    public WebDriver driver() {
        return driver;
    }

    /** Forgets every cookie of {@code base} (a fresh browser for the next test). */
    public void forget(String base) {
        driver.get(base + "/css/portcullis.css");
        driver.manage().deleteAllCookies();
    }

    public void open(String url) {
        driver.get(url);
    }

    public WebElement visible(String id) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
    }

    public WebElement visible(By by) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    /** Clicks {@code button} and waits until the browser has left the page it was on (the next page's elements are not
     *  the old page's, even where both have them). */
    public void clickAndWaitForNextPage(WebElement button) {
        WebElement page = driver.findElement(By.tagName("html"));
        button.click();
        wait.until(ExpectedConditions.stalenessOf(page));
    }

    public void gone(String id) {
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id(id)));
    }

    /** Fills and submits the sign-in page. */
    public void signIn(String username, String password) {
        WebElement user = visible("login:username");
        user.clear();
        user.sendKeys(username);
        driver.findElement(By.id("login:password")).sendKeys(password);
        driver.findElement(By.id("login:submit")).click();
    }

    public void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            File f = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(f.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
