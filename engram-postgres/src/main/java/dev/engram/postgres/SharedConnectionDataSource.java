package dev.engram.postgres;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A DataSource that hands out one borrowed connection, whatever is asked for, wrapped so that
 * closing it does not close it (its owner does). Flyway opens a second connection for migrations;
 * given this, all its work runs on the one connection, so a migration needs no more than a pool of
 * one.
 */
final class SharedConnectionDataSource implements DataSource {
  private final Connection shared;

  SharedConnectionDataSource(Connection connection) {
    this.shared =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("close") && method.getParameterCount() == 0) {
                    return null;
                  }
                  if (method.getName().equals("isClosed") && method.getParameterCount() == 0) {
                    return connection.isClosed();
                  }
                  try {
                    return method.invoke(connection, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  @Override
  public Connection getConnection() {
    return shared;
  }

  @Override
  public Connection getConnection(String username, String password) {
    return shared;
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging here");
  }

  @Override
  public <T> T unwrap(Class<T> type) throws java.sql.SQLException {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new java.sql.SQLException("not a wrapper of " + type.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }
}
