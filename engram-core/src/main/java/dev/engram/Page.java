package dev.engram;

import java.util.List;

/**
 * One page of a listing.
 *
 * @param items the items of this page
 * @param total how many items match in all
 * @param offset the offset of the first item
 */
public record Page<T>(List<T> items, long total, int offset) {
  public Page {
    items = List.copyOf(items);
  }

  /** True if items follow this page. */
  public boolean hasMore() {
    return offset + items.size() < total;
  }
}
