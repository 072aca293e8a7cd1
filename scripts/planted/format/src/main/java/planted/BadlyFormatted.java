package planted;

/** Compiles cleanly, but is not in google-java-format's layout. */
public final class BadlyFormatted
{
    private BadlyFormatted() {}

    /** Twice {@code x}. */
    public static int twice( int x ) { return 2*x; }
}
