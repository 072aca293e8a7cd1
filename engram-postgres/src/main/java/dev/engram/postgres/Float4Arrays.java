package dev.engram.postgres;

import dev.engram.spi.sql.Sql;

/** Embeddings as PostgreSQL {@code float4[]} (the {@code real[]} columns and parameters). */
final class Float4Arrays {
  private Float4Arrays() {}

  /** A parameter binding {@code v} as a {@code float4[]}. */
  static Sql.Parameter parameter(float[] v) {
    return (ps, index) -> ps.setArray(index, ps.getConnection().createArrayOf("float4", boxed(v)));
  }

  static Float[] boxed(float[] v) {
    Float[] out = new Float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i];
    }
    return out;
  }
}
