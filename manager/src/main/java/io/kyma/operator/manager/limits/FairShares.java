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
    private FairShares() {
    }

    /**
     * Each flow's share of {@code limit}: the flows that ask for the fewest take all they ask for, the rest split what
     * is left evenly (water-filling). With more flows than places, which of those asking as many get one is drawn
     * with {@code random}.
     */
    public static Map<String, Integer> maxMin(Map<String, Integer> asked, int limit, Random random) {
        List<Map.Entry<String, Integer>> byCount = new ArrayList<>(asked.entrySet());
        Collections.shuffle(byCount, random);
        byCount.sort(Map.Entry.comparingByValue(Comparator.naturalOrder()));
        Map<String, Integer> shares = new HashMap<>();
        int left = limit;
        for (int i = 0; i < byCount.size(); i++) {
            int share = left / (byCount.size() - i);
            int quota = Math.min(byCount.get(i).getValue(), share);
            shares.put(byCount.get(i).getKey(), quota);
            left -= quota;
        }
        return shares;
    }
}
