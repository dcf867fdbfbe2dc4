package io.kyma.operator.manager.limits;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Max-min fair shares of a limited number of places between flows (namespaces) that ask for different numbers. */
public final class FairShares {
    private FairShares() {}

    /**
     * Each flow's share of {@code limit}: the flows that ask for the fewest take all they ask for, the rest split what
     * is left evenly (water-filling). With more flows than places, which of those asking as many get one is drawn
     * with {@code random}.
     */
    public static Map<String, Integer> maxMin(Map<String, Integer> asked, int limit, Random random) {
        List<String> preference = new ArrayList<>(asked.keySet());
        Collections.shuffle(preference, random);
        return maxMin(asked, limit, preference);
    }

    /**
     * As {@link #maxMin(Map, int, Random)}, but among flows asking as many, those earlier in {@code preference} (which
     * lists every flow) get a place first.
     */
    public static Map<String, Integer> maxMin(Map<String, Integer> asked, int limit, List<String> preference) {
        // least preferred first among equals: they are served while the share is still rounded down
        List<String> order = new ArrayList<>(preference);
        Collections.reverse(order);
        order.sort(Comparator.comparing(asked::get));
        Map<String, Integer> shares = new HashMap<>();
        int left = limit;
        for (int i = 0; i < order.size(); i++) {
            int share = left / (order.size() - i);
            int quota = Math.min(asked.get(order.get(i)), share);
            shares.put(order.get(i), quota);
            left -= quota;
        }
        return shares;
    }
}
