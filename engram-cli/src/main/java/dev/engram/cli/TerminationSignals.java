package dev.engram.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGTERM and SIGINT as a request to stop, for long-running commands ({@code engram serve}). The
 * JVM's own handling of these signals runs the shutdown hooks and exits with 143 or 130, which
 * service managers and tests read as a failure; with a handler installed here the command stops
 * gracefully on its main thread and exits with 0. {@code sun.misc.Signal} (module {@code
 * jdk.unsupported}) is the only way the JDK offers to handle a signal; it is reached by reflection,
 * since javac's warning about that API cannot be suppressed and main code compiles with {@code
 * -Werror}.
 */
final class TerminationSignals {
  private static final Logger LOG = LoggerFactory.getLogger(TerminationSignals.class);
  private static final String[] NAMES = {"TERM", "INT"};

  private TerminationSignals() {}

  /**
   * Runs {@code onSignal} (on a JVM signal thread; it should only wake the command up) when SIGTERM
   * or SIGINT arrives. Returns false if a signal could not be handled here (then the JVM's default
   * applies to it: shutdown hooks run and the exit code is 128 + the signal number).
   */
  static boolean install(Runnable onSignal) {
    boolean all = true;
    for (String name : NAMES) {
      try {
        handle(name, onSignal);
      } catch (IllegalArgumentException
          | UnsupportedOperationException
          | ReflectiveOperationException unavailable) {
        LOG.debug("SIG{} cannot be handled here: {}", name, unavailable.getMessage());
        all = false;
      }
    }
    return all;
  }

  /**
   * {@code sun.misc.Signal.handle(new Signal(name), signal -> onSignal.run())}, with the JDK's own
   * exceptions.
   */
  private static void handle(String name, Runnable onSignal) throws ReflectiveOperationException {
    Class<?> signalType = Class.forName("sun.misc.Signal");
    Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
    Object handler =
        Proxy.newProxyInstance(
            handlerType.getClassLoader(),
            new Class<?>[] {handlerType},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return objectMethod(proxy, method, args);
              }
              onSignal.run();
              return null;
            });
    try {
      Object signal = signalType.getConstructor(String.class).newInstance(name);
      signalType.getMethod("handle", signalType, handlerType).invoke(null, signal, handler);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException unavailable) {
        throw unavailable; // an unknown signal, or one the JVM keeps for itself
      }
      throw e;
    }
  }

  /** Object's methods on the handler proxy: identity, as a lambda would have. */
  private static Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> "signal handler";
    };
  }
}
