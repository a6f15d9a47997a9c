import Components
import EnvKeys

/// What a list page's markup before its rows is made from: the list's parameters, each
/// column's key, label and alignment, which columns sort (the rules' answer, asked on every
/// page) and each column's "why?" link. Two pages with equal heads write the same bytes
/// there, their search and filter forms and their table's head with a sort link per column,
/// so those are made once and kept (``ListHeads``): they are the part of a list page that
/// costs most after its rows.
struct ListHead: Hashable {
  let path: String
  let whereText: String
  let searchText: String
  let orderText: String
  let filterError: String?
  /// The first ordering's key path and direction (a column's sort state and link read it).
  let firstOrdering: String?
  let firstAscending: Bool
  let limit: Int?
  let window: Int
  let facetKeys: [String]
  /// The facet values chosen, each key then its literal.
  let chosenFacets: [String]
  /// The key the filter form's examples name.
  let example: String
  /// Each column's key, label and alignment.
  let columns: [String]
  let rightAligned: [Bool]
  /// The columns that sort (nil: every one).
  let sortable: Set<String>?
  /// Each column's "why?" link, empty for none.
  let whys: [String]

  /// How many bytes of typed text (search, filter, its error, order, facet values) a head kept
  /// may hold: a longer one, asked once, is made and not kept (each long text is in its bytes
  /// many times, a sort link each).
  static let maximumTypedBytes = 256

  /// Hashes everything a visitor's request sets (the page, its search, filter, order, window
  /// and facets, so that no visitor makes many heads of one hash) and the columns' number and
  /// first key, not every column's texts and the sortable set, which the rules set: equal
  /// heads still compare whole, and the texts and set of a page's plan, the same storage page
  /// after page, compare at once.
  func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(orderText)
    hasher.combine(whereText)
    hasher.combine(searchText)
    hasher.combine(filterError)
    hasher.combine(limit)
    hasher.combine(window)
    hasher.combine(facetKeys)
    hasher.combine(chosenFacets)
    hasher.combine(columns.count)
    hasher.combine(columns.first)
  }

  /// Whether the head's typed text is short enough to be kept.
  var isKeepable: Bool {
    var typed = whereText.utf8.count + searchText.utf8.count + orderText.utf8.count
    typed += filterError?.utf8.count ?? 0
    typed += chosenFacets.reduce(0) { $0 + $1.utf8.count }
    return typed <= Self.maximumTypedBytes
  }

  /// The head of `list`'s page showing `columns`.
  init(
    list: WebListQuery, example: String, columns: [TableColumn], sortable: Set<String>?,
    whys: [String]
  ) {
    path = list.path
    whereText = list.whereText
    searchText = list.searchText
    orderText = list.orderText
    filterError = list.filterError
    firstOrdering = list.orderings.first?.keyPath
    firstAscending = list.orderings.first?.ascending ?? true
    limit = list.limit
    window = list.window
    facetKeys = list.facetKeys
    chosenFacets = list.chosenFacets.flatMap { [$0.key, $0.literal] }
    self.example = example
    self.columns = columns.flatMap { [$0.key, $0.label] }
    rightAligned = columns.map(\.rightAligned)
    self.sortable = sortable
    self.whys = whys
  }
}

/// The bytes of list heads made lately, shared by every page (the same head is the same
/// bytes, whoever asks): at most ``maximumHeads`` of at most ``maximumBytes`` each, with at most
/// ``ListHead/maximumTypedBytes`` of typed text, then they start over (4 MB of bytes at most).
enum ListHeads {
  /// The most heads kept.
  static let maximumHeads = 256
  /// The most bytes of one head kept.
  static let maximumBytes = 16_384
  /// A head kept and its bytes.
  private final class Kept: Sendable {
    let head: ListHead
    let bytes: [UInt8]
    init(head: ListHead, bytes: [UInt8]) {
      self.head = head
      self.bytes = bytes
    }
  }
  /// The heads kept, by their hash: read beside other readers, for an integer's look-up (every
  /// list page asks, and under load the pages of several connections waited for each other on
  /// a lock each took in turn: over PostgreSQL, a thread switched out while it held it); a
  /// head is hashed and compared outside the lock. A head whose hash another holds is made and
  /// replaces it.
  private static let kept = ReadMostly<[Int: Kept]>([:])

  /// The bytes of `head`: kept ones, or those `make` writes (then kept, when small enough).
  static func bytes(_ head: ListHead, make: () -> String) -> [UInt8] {
    guard head.isKeepable else { return Array(make().utf8) }
    let hash = head.hashValue
    if let found = kept.read({ $0[hash] }), found.head == head { return found.bytes }
    let bytes = Array(make().utf8)
    guard bytes.count <= maximumBytes else { return bytes }
    let made = Kept(head: head, bytes: bytes)
    kept.write { kept in
      if kept.count >= maximumHeads { kept.removeAll() }
      kept[hash] = made
    }
    return bytes
  }

  /// Forgets every head kept (for tests: a head made anew is what a kept one must equal).
  static func removeAll() { kept.write { $0.removeAll() } }
}
