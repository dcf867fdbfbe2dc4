package io.kyma.operator.bench;

import java.util.Arrays;
import java.util.List;

/**
 * A comma-separated file the bench wrote: a header row of column names, then rows of as many cells (no cell holds a
 * comma). Columns are found by name, so a reader does not depend on their order.
 */
record Csv(List<String> header, List<String[]> rows) {
    static Csv parse(String text) {
        List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("no header row");
        }
        List<String> header = List.of(lines.get(0).split(","));
        List<String[]> rows = lines.stream().skip(1).map(l -> l.split(",", -1)).toList();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).length != header.size()) {
                throw new IllegalArgumentException(String.format(
                        "row %d has %d cells, the header %d: %s",
                        i + 1, rows.get(i).length, header.size(), Arrays.toString(rows.get(i))));
            }
        }
        return new Csv(header, rows);
    }

    /** The index of a column the reader needs. */
    int column(String name) {
        int index = header.indexOf(name);
        if (index < 0) {
            throw new IllegalArgumentException("no column " + name + " in " + header);
        }
        return index;
    }

    /** The index of a column an older file may lack, or -1. */
    int optionalColumn(String name) {
        return header.indexOf(name);
    }

    /** One column's cells as numbers. */
    List<Double> numbers(String name) {
        int index = column(name);
        return rows.stream().map(r -> Double.parseDouble(r[index])).toList();
    }
}
