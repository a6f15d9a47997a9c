import D2SModel
import EnvKeys
import Qualifiers

/// What makes two lists the same list for a row's position: the entity, the orderings and
/// the whole filter (the user's qualifier with a page's own, such as a to-many's).
///
/// Its fingerprint is stable across processes and machines (FNV-1a over the canonical text,
/// never Swift's per-process seeded hash), so a position made by one server is read by
/// another.
public struct ListIdentity: Sendable, Equatable {
  /// A short text naming the list: letters and digits.
  public let fingerprint: String

  /// The identity of the rows `specification` lists (its window is not part of it).
  public init(_ specification: FetchSpecification) {
    let orderings = specification.sortOrderings.map {
      $0.keyPath + ($0.ascending ? " asc" : " desc") + ($0.caseInsensitive ? " ci" : "")
    }
    var parts = [
      specification.entityName, orderings.joined(separator: ","),
      specification.qualifier?.description ?? "",
    ]
    // A search through a full-text index is part of what is listed (and only then: the
    // fingerprints of other lists stay as they were).
    if let search = specification.fullText {
      parts.append(
        "search " + search.words.joined(separator: " ") + " in "
          + (search.columns ?? []).joined(separator: ","))
    }
    let text = parts.joined(separator: "\n")
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    fingerprint = String(hash, radix: 36)
  }
}

/// A row's position in a list (its orderings' values, then its primary key), bound to the
/// list it was read in: where `next` and `prev` continue from.
///
/// It serialises to a short opaque text (``token``) for a URL or a transcript, and reads
/// back only against the same list: a token that does not decode, or was made for another
/// entity, ordering or filter, is a ``PositionTokenError``, never a window of wrong rows.
public struct ListPosition: Sendable, Equatable {
  /// The row's orderings' values, then its primary key values.
  public let values: [DatabaseValue]
  /// The list the row was read in.
  public let list: ListIdentity

  /// The position `values` in `list`.
  public init(_ values: [DatabaseValue], in list: ListIdentity) {
    self.values = values
    self.list = list
  }

  /// `FINGERPRINT.VALUES`: nil when a value cannot be a position (an array).
  public var token: String? {
    PositionToken.encode(values).map { list.fingerprint + "." + $0 }
  }

  /// The position `token` holds, read for `list`.
  ///
  /// - Throws: ``PositionTokenError`` when the token is no position, or one of another list.
  public init(token: String, in list: ListIdentity) throws {
    guard let dot = token.firstIndex(of: "."), token.startIndex < dot else {
      throw PositionTokenError(message: "not a list position: \(token)")
    }
    let values = try PositionToken.decode(String(token[token.index(after: dot)...]))
    guard token[..<dot] == list.fingerprint else {
      throw PositionTokenError(
        message:
          "the position belongs to another list (its entity, order or filter differs); start again from the list's first page"
      )
    }
    self.init(values, in: list)
  }
}

extension ListRequest {
  /// The rows `self` lists from `entity`: the user's qualifier with `auxiliary` (a page's own,
  /// such as a to-many's), in the list's order, without a window. The one place a list's
  /// qualifiers are combined.
  public func rows(of entity: Entity, auxiliary: Qualifier?) -> FetchSpecification {
    let parts = [qualifier, auxiliary].compactMap { $0 }
    var specification = FetchSpecification(
      entityName: entity.name, qualifier: parts.isEmpty ? nil : .all(parts),
      sortOrderings: sortOrderings)
    specification.fullText = fullText
    return specification
  }

  /// The identity positions read in this list are bound to.
  public func identity(of entity: Entity, auxiliary: Qualifier?) -> ListIdentity {
    ListIdentity(rows(of: entity, auxiliary: auxiliary))
  }
}
