package site.ycsb.embedded;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter;
import site.ycsb.measurements.exporter.MeasurementsExporter;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;

/**
 * YCSB takes one exporter per run; this one gives both forms: the JSON array into
 * {@code exportfile} (as JSONArrayMeasurementsExporter) and the usual text lines on stdout (as
 * TextMeasurementsExporter), so a kept run has its machine-readable and human-readable results.
 *
 * <pre>-p exporter=site.ycsb.embedded.TextAndJsonExporter -p exportfile=run.json</pre>
 */
public final class TextAndJsonExporter implements MeasurementsExporter {

  private final MeasurementsExporter json;
  private final MeasurementsExporter text;

  public TextAndJsonExporter(OutputStream exportFile) throws IOException {
    this.json = new JSONArrayMeasurementsExporter(exportFile);
    // The text exporter closes its stream; stdout must stay open for whatever prints after it.
    this.text = new TextMeasurementsExporter(new FilterOutputStream(System.out) {
      @Override
      public void close() throws IOException {
        flush();
      }
    });
  }

  @Override
  public void write(String metric, String measurement, int i) throws IOException {
    json.write(metric, measurement, i);
    text.write(metric, measurement, i);
  }

  @Override
  public void write(String metric, String measurement, long i) throws IOException {
    json.write(metric, measurement, i);
    text.write(metric, measurement, i);
  }

  @Override
  public void write(String metric, String measurement, double d) throws IOException {
    json.write(metric, measurement, d);
    text.write(metric, measurement, d);
  }

  @Override
  public void close() throws IOException {
    try {
      json.close();
    } finally {
      text.close();
    }
  }
}
