package dev.vtscope.gate;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Writes a check as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins)
 * display: one test suite, one test case per check, a failure element for each that failed.
 */
public final class JUnitReport {

  private JUnitReport() {}

  public static void write(CheckResult result, String suiteName, Path file) throws IOException {
    try {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
      Element suites = doc.createElement("testsuites");
      doc.appendChild(suites);
      Element suite = doc.createElement("testsuite");
      suite.setAttribute("name", suiteName);
      suite.setAttribute("tests", Integer.toString(result.items().size()));
      suite.setAttribute("failures", Long.toString(result.failures()));
      suite.setAttribute("errors", "0");
      suite.setAttribute("skipped", "0");
      suites.setAttribute("tests", Integer.toString(result.items().size()));
      suites.setAttribute("failures", Long.toString(result.failures()));
      suites.appendChild(suite);
      for (CheckItem item : result.items()) {
        Element testCase = doc.createElement("testcase");
        testCase.setAttribute("classname", "vtscope." + item.kind());
        testCase.setAttribute("name", item.name());
        if (!item.passed()) {
          Element failure = doc.createElement("failure");
          failure.setAttribute("message", item.message());
          failure.setAttribute("type", item.kind());
          failure.setTextContent(item.detail() == null ? item.message() : item.detail());
          testCase.appendChild(failure);
        } else {
          Element out = doc.createElement("system-out");
          out.setTextContent(item.message());
          testCase.appendChild(out);
        }
        suite.appendChild(testCase);
      }
      if (!result.allowed().isEmpty()) {
        Element out = doc.createElement("system-out");
        out.setTextContent("allowed:\n" + String.join("\n", result.allowed()));
        suite.appendChild(out);
      }
      var transformer = TransformerFactory.newInstance().newTransformer();
      transformer.setOutputProperty(OutputKeys.INDENT, "yes");
      transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      try (OutputStream out = Files.newOutputStream(file)) {
        transformer.transform(new DOMSource(doc), new StreamResult(out));
      }
    } catch (ParserConfigurationException | TransformerException e) {
      throw new IOException("cannot write JUnit XML: " + e.getMessage(), e);
    }
  }
}
