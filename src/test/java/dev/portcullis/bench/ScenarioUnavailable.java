package dev.portcullis.bench;

/** Thrown while preparing a scenario whose endpoint is not (yet) on this server: the scenario is skipped with a note. */
public class ScenarioUnavailable extends Exception {

    private static final long serialVersionUID = 1L;

    public ScenarioUnavailable(String note) {
        super(note, null, false, false);
    }
}
