package dev.quiver.internal.backend;

/** The kinds of handle a checked device tracks, with the word its messages use for each. */
enum HandleKind {
    /** Device memory from {@code allocate}. */
    ALLOCATION("memory"),
    /** A stream from {@code createStream} or {@code adoptStream}. */
    STREAM("stream"),
    /** An event from {@code createEvent} or {@code adoptEvent}. */
    EVENT("event");

    private final String word;

    HandleKind(String word) {
        this.word = word;
    }

    /** @return how messages name a handle of this kind */
    String word() {
        return word;
    }
}
