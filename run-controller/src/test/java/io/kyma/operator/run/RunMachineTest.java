package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.kyma.operator.common.status.FailureClass;
import io.kyma.operator.run.RunMachine.Action;
import io.kyma.operator.run.RunMachine.Event;
import io.kyma.operator.run.RunMachine.State;
import io.kyma.operator.run.RunMachine.Step;

/** The Run controller's transition function, as a table: every state against every event. */
class RunMachineTest {
    /**
     * One row per state, one column per event in {@link Event}'s order (NOTHING, SPEC_INVALID, DEADLINE, STARTED,
     * RUNNING, DONE, GONE, RETRY, GIVE_UP); each cell the next state and the action.
     */
    private static final String[] TABLE = {
        "NEW        | NEW ASK_START       | ENDED FAIL           | ENDED FAIL           | RUNNING RECORD      "
                + "| NEW ASK_START       | NEW ASK_START        | ENDED FAIL           | NEW BLOCKED          "
                + "| ENDED FAIL",
        "STARTED    | RUNNING RECORD      | CANCELLING BEGIN_CANCEL | CANCELLING BEGIN_CANCEL | RUNNING RECORD "
                + "| RUNNING RECORD      | RUNNING RECORD       | RUNNING RECORD       | RUNNING RECORD       "
                + "| RUNNING RECORD",
        "RUNNING    | RUNNING ASK_POLL    | CANCELLING BEGIN_CANCEL | CANCELLING BEGIN_CANCEL | RUNNING ASK_POLL "
                + "| RUNNING PROGRESS    | ENDED OUTCOME        | ENDED FAIL           | RUNNING BLOCKED      "
                + "| CANCELLING BEGIN_CANCEL",
        "CANCELLING | CANCELLING ASK_CANCEL | CANCELLING ASK_CANCEL | CANCELLING ASK_CANCEL | CANCELLING ASK_CANCEL "
                + "| CANCELLING ASK_CANCEL | ENDED OUTCOME      | ENDED OUTCOME        | CANCELLING BLOCKED   "
                + "| ENDED OUTCOME",
        "ENDED      | ENDED FORGET        | ENDED FORGET         | ENDED FORGET         | ENDED FORGET        "
                + "| ENDED FORGET        | ENDED FORGET         | ENDED FORGET         | ENDED FORGET         "
                + "| ENDED FORGET",
        "DELETING   | DELETING CLEAN_UP   | DELETING CLEAN_UP    | ENDED RELEASE        | DELETING CLEAN_UP   "
                + "| DELETING CLEAN_UP   | ENDED RELEASE        | ENDED RELEASE        | DELETING BLOCKED     "
                + "| ENDED RELEASE",
    };

    @Test
    void everyStateAnswersEveryEventAsTheTableSays() {
        Map<State, Map<Event, Step>> expected = new HashMap<>();
        for (String row : TABLE) {
            String[] cells = row.split("\\|");
            State state = State.valueOf(cells[0].strip());
            assertThat(cells).as(state.name()).hasSize(Event.values().length + 1);
            Map<Event, Step> steps = new HashMap<>();
            for (Event event : Event.values()) {
                String[] cell = cells[event.ordinal() + 1].strip().split("\\s+");
                steps.put(event, new Step(State.valueOf(cell[0]), Action.valueOf(cell[1])));
            }
            expected.put(state, steps);
        }
        assertThat(expected.keySet()).as("a row for every state").containsExactlyInAnyOrder(State.values());
        for (State state : State.values()) {
            for (Event event : Event.values()) {
                assertThat(RunMachine.next(state, event))
                        .as("%s x %s", state, event)
                        .isEqualTo(expected.get(state).get(event));
            }
        }
    }

    @Test
    void aJobIsNeverLeftBehindAndAnEndedRunStaysEnded() {
        for (State state : State.values()) {
            for (Event event : Event.values()) {
                Step step = RunMachine.next(state, event);
                if (state == State.STARTED || state == State.RUNNING) {
                    // a Run with a job ends only when the job did (or is unknown), else by cancelling it first
                    boolean jobOver = event == Event.DONE || event == Event.GONE;
                    assertThat(step.next() != State.ENDED || jobOver)
                            .as("%s x %s -> %s", state, event, step)
                            .isTrue();
                }
                if (state == State.ENDED) {
                    assertThat(step).isEqualTo(new Step(State.ENDED, Action.FORGET));
                }
                if (state == State.DELETING) {
                    assertThat(step.action())
                            .as("deleting: no start, poll or status write")
                            .isIn(EnumSet.of(Action.CLEAN_UP, Action.BLOCKED, Action.RELEASE));
                }
                if (step.action() == Action.ASK_START) {
                    assertThat(state).as("a start only while no job is known").isEqualTo(State.NEW);
                }
            }
        }
    }

    @Test
    void aFailureIsRetriedOnlyWhenItsClassIsRetryAndItIsWithinItsBound() {
        for (FailureClass failureClass : FailureClass.values()) {
            for (boolean retryable : new boolean[] {true, false}) {
                Event expected = failureClass == FailureClass.GONE
                        ? Event.GONE
                        : failureClass == FailureClass.RETRY && retryable ? Event.RETRY : Event.GIVE_UP;
                assertThat(RunMachine.failed(failureClass, retryable))
                        .as("%s, retryable %s", failureClass, retryable)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void pastItsDeadlineAJobThatEndedIsReportedAndOneStillRunningIsCancelledAfterItsLastLook() {
        for (Event polled : Event.values()) {
            assertThat(RunMachine.pastDeadline(polled, true))
                    .as("%s, looked", polled)
                    .isEqualTo(polled == Event.DONE ? Event.DONE : Event.DEADLINE);
            assertThat(RunMachine.pastDeadline(polled, false))
                    .as("%s, not looked yet", polled)
                    .isEqualTo(polled == Event.RUNNING ? Event.NOTHING : polled);
        }
    }
}
