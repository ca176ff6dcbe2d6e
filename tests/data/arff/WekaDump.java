// Prints what Weka reads from ARFF files, as JSON lines, for tests/test_arff.py:
//   java -cp weka.jar WekaDump.java FILE.arff ...
// per file: {"relation": ..., "attributes": [[name, type], ...]}, then one line per row:
// [weight, value, ...] (numbers and dates as Weka stores them, dates in milliseconds
// since 1970 read in UTC; nominal and string values as text; null when missing).
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.TimeZone;
import weka.core.Attribute;
import weka.core.Instance;
import weka.core.Instances;

public class WekaDump {
    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    public static void main(String[] args) throws Exception {
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        for (String path : args) {
            Instances data = new Instances(new BufferedReader(new FileReader(path)));
            StringBuilder head = new StringBuilder("{\"relation\": " + quote(data.relationName())
                                                   + ", \"attributes\": [");
            for (int j = 0; j < data.numAttributes(); j++) {
                Attribute a = data.attribute(j);
                head.append(j > 0 ? ", " : "").append("[").append(quote(a.name())).append(", ")
                    .append(quote(a.isNominal() ? "nominal" : a.isString() ? "string" : a.isDate() ? "date" : a.isNumeric() ? "numeric" : "other")).append("]");
            }
            System.out.println(head.append("]}"));
            for (int i = 0; i < data.numInstances(); i++) {
                Instance row = data.instance(i);
                StringBuilder line = new StringBuilder("[" + row.weight());
                for (int j = 0; j < data.numAttributes(); j++) {
                    Attribute a = data.attribute(j);
                    line.append(", ");
                    if (row.isMissing(j)) line.append("null");
                    else if (a.isNominal() || a.isString()) line.append(quote(row.stringValue(j)));
                    else line.append(Double.toString(row.value(j)));
                }
                System.out.println(line.append("]"));
            }
        }
    }
}
