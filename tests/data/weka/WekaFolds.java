/*
 * Weka's own cross-validation folds, for tests/test_weka_folds.py.
 *
 * For every case below it makes the folds exactly as Weka's Explorer (Classify tab,
 * cross-validation with a seed) and Experimenter (CrossValidationResultProducer, run =
 * seed) make them:
 *
 *     Random random = new Random(seed);
 *     data.randomize(random);
 *     data.stratify(k);
 *     for each fold f: train = data.trainCV(k, f, random); test = data.testCV(k, f);
 *
 * and prints, as JSON, a few draws of java.util.Random, where every row of the file went (its test fold, per repeat), a
 * digest of every training set in the order the classifier receives it, the whole
 * training orders of one case, and how many test rows Weka's ZeroR got right per fold.
 * Rows are tracked by an ID attribute added with Weka's AddID filter (0-based here).
 *
 * Rerun it (from the repository's root; Debian's weka package installs Weka 3.6):
 *
 *   javac -cp /usr/share/java/weka.jar -d /tmp/wekafolds tests/data/weka/WekaFolds.java
 *   java -cp /usr/share/java/weka.jar:/tmp/wekafolds WekaFolds \
 *       /usr/share/doc/weka/examples > tests/data/weka/weka_folds.json
 *
 * The CSV files next to this one are the same ARFF files converted once with
 *   java -cp /usr/share/java/weka.jar weka.core.converters.CSVSaver -i NAME.arff -o NAME.csv
 */
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import weka.classifiers.Evaluation;
import weka.classifiers.rules.ZeroR;
import weka.core.Instances;
import weka.core.Version;
import weka.core.converters.ConverterUtils.DataSource;
import weka.filters.Filter;
import weka.filters.unsupervised.attribute.AddID;

public class WekaFolds {

  /** data set, folds, first seed, repeats, whether to print the whole training orders */
  static final Object[][] CASES = {
    {"breast-cancer", 2, 1, 3, false},
    {"breast-cancer", 3, 1, 3, false},
    {"breast-cancer", 10, 1, 3, false},
    {"iris", 2, 0, 3, false},
    {"iris", 3, 7, 3, true},
    {"iris", 10, 1, 3, false},
    {"contact-lenses", 3, 1, 3, false},
    {"contact-lenses", 10, 1, 3, false},
    {"iris-missing", 3, 1, 3, false},
  };

  /** rows of iris whose class is made missing in the case "iris-missing" */
  static final int[] MISSING = {3, 50, 77, 120, 149};

  public static void main(String[] args) throws Exception {
    String folder = args[0];
    StringBuilder out = new StringBuilder();
    out.append("{\"weka_version\": \"").append(Version.VERSION).append("\",\n");
    out.append(" \"missing_class_rows\": ").append(list(MISSING)).append(",\n");
    out.append(javaRandom());
    out.append(" \"cases\": [\n");
    for (int c = 0; c < CASES.length; c++) {
      Object[] spec = CASES[c];
      out.append(oneCase(folder, (String) spec[0], (Integer) spec[1], (Integer) spec[2],
                         (Integer) spec[3], (Boolean) spec[4]));
      out.append(c < CASES.length - 1 ? ",\n" : "\n");
    }
    out.append(" ]}\n");
    System.out.print(out);
  }

  /** java.util.Random itself: nextInt of powers of two, other bounds, and bounds that
   *  often reject a draw (2^30 + 1). */
  static String javaRandom() {
    long[] seeds = {0L, 42L, -5L, 123456789012L};
    StringBuilder text = new StringBuilder(" \"java_random\": {\"bounds\": " + list(BOUNDS)
                                           + ", \"draws\": {");
    for (int s = 0; s < seeds.length; s++) {
      Random random = new Random(seeds[s]);
      int[] draws = new int[3 * BOUNDS.length];
      for (int i = 0; i < draws.length; i++) {
        draws[i] = random.nextInt(BOUNDS[i % BOUNDS.length]);
      }
      text.append(s > 0 ? ", " : "").append("\"").append(seeds[s]).append("\": ")
          .append(list(draws));
    }
    return text.append("}},\n").toString();
  }

  static final int[] BOUNDS = {10, 16, 1, 2, 3, 7, 1000, 1 << 20, 1000000007,
                               Integer.MAX_VALUE, (1 << 30) + 1};

  static Instances load(String folder, String name) throws Exception {
    boolean missing = name.equals("iris-missing");
    Instances data = DataSource.read(folder + "/" + (missing ? "iris" : name) + ".arff");
    data.setClassIndex(data.numAttributes() - 1);
    if (missing) {
      for (int row : MISSING) {
        data.instance(row).setClassMissing();
      }
    }
    AddID id = new AddID();          // attribute 0: the row's number, from 1
    id.setInputFormat(data);
    data = Filter.useFilter(data, id);
    data.setClassIndex(data.numAttributes() - 1);
    return data;
  }

  static String oneCase(String folder, String name, int k, int seed, int repeats,
                        boolean whole) throws Exception {
    Instances data = load(folder, name);
    StringBuilder fold = new StringBuilder(), digests = new StringBuilder();
    StringBuilder orders = new StringBuilder(), zeroR = new StringBuilder();
    for (int r = 0; r < repeats; r++) {
      Instances run = new Instances(data);
      Random random = new Random(seed + r);
      run.randomize(random);
      if (run.classAttribute().isNominal()) {
        run.stratify(k);
      }
      char[] foldOf = new char[data.numInstances()];
      for (int f = 0; f < k; f++) {
        Instances train = run.trainCV(k, f, random);
        Instances test = run.testCV(k, f);
        for (int row : rows(test)) {
          foldOf[row] = Character.forDigit(f, 36);
        }
        String trainText = join(rows(train));
        separate(digests).append('"').append(sha256(trainText).substring(0, 16)).append('"');
        if (whole) {
          separate(orders).append('[').append(trainText).append(']');
        }
        separate(zeroR).append(zeroRCorrect(train, test));
      }
      separate(fold).append('"').append(new String(foldOf)).append('"');
    }
    return "  {\"data\": \"" + name + "\", \"n_splits\": " + k + ", \"random_state\": " + seed
        + ", \"n_repeats\": " + repeats + ", \"n_rows\": " + data.numInstances()
        + ",\n   \"test_fold\": [" + fold + "],\n   \"train_sha256_16\": [" + digests + "]"
        + (whole ? ",\n   \"train\": [" + orders + "]" : "")
        + ",\n   \"zero_r_correct\": [" + zeroR + "]}";
  }

  /** Test rows ZeroR classifies correctly (the ID attribute removed first). */
  static int zeroRCorrect(Instances train, Instances test) throws Exception {
    Instances tr = new Instances(train), te = new Instances(test);
    tr.deleteAttributeAt(0);
    te.deleteAttributeAt(0);
    ZeroR zeroR = new ZeroR();
    zeroR.buildClassifier(tr);
    Evaluation evaluation = new Evaluation(tr);
    evaluation.evaluateModel(zeroR, te);
    return (int) Math.round(evaluation.correct());
  }

  static List<Integer> rows(Instances data) {
    List<Integer> rows = new ArrayList<Integer>();
    for (int i = 0; i < data.numInstances(); i++) {
      rows.add((int) Math.round(data.instance(i).value(0)) - 1);
    }
    return rows;
  }

  static String join(List<Integer> rows) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < rows.size(); i++) {
      text.append(i > 0 ? "," : "").append(rows.get(i));
    }
    return text.toString();
  }

  static String list(int[] values) {
    StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      text.append(i > 0 ? ", " : "").append(values[i]);
    }
    return text.append("]").toString();
  }

  static StringBuilder separate(StringBuilder text) {
    return text.length() > 0 ? text.append(", ") : text;
  }

  static String sha256(String text) throws Exception {
    byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes("UTF-8"));
    StringBuilder hex = new StringBuilder();
    for (byte b : hash) {
      hex.append(String.format("%02x", b & 0xff));
    }
    return hex.toString();
  }
}
