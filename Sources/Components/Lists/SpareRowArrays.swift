import EnvKeys

/// The key and cells arrays of the row last written, kept for the next row of the same
/// list: written over in place, their storage is reused when no one else holds them (a
/// renderer that kept the row still has its own, since arrays are copied when written).
///
/// One list's rows are made and written in turn on one thread; a list never shares it (kept
/// with its columns by a connection from page to page, it is held by one page at a time).
final class SpareRowArrays {
  private var key: [DatabaseValue] = []
  private var cells: [ShownValue] = []

  /// The arrays as the last row left them, which are then no longer kept here: the next row
  /// writes over their elements (emptying them first cost as much again as the writing).
  func take() -> (key: [DatabaseValue], cells: [ShownValue]) {
    var taken: (key: [DatabaseValue], cells: [ShownValue]) = ([], [])
    swap(&taken.key, &key)
    swap(&taken.cells, &cells)
    return taken
  }

  /// Keeps `row`'s arrays for the next ``take()``.
  func keep(_ row: consuming TableRow) {
    key = row.key
    cells = row.cells
  }
}
