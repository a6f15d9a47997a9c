import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation

/// What the web adds to the application's names: keys as URLs write them, and whether the
/// user may reach an entity, as a function links can keep.
extension ModelNames {
  /// Whether the user may reach an entity, by name.
  var reaches: @Sendable (String) -> Bool {
    { [context] in context.isEntityReachable($0) }
  }

  /// The key of `entity` written in a URL segment (`1`, `1,3402`, `INV%2F2024`, `~-`: see
  /// ``WebLinks/keySegment(_:)``).
  func key(_ segment: Substring, of entity: Entity) throws -> [DatabaseValue] {
    try entity.requireDetails()  // no key is read as missing while the columns cannot be
    let attributes = entity.primaryKeyAttributes
    let parts = WebLinks.keyText(ofSegment: segment).split(
      separator: ",", omittingEmptySubsequences: false)
    guard !attributes.isEmpty, parts.count == attributes.count else {
      throw WebError(.notFound, "no \(entity.name) with key \(segment)")
    }
    return try zip(attributes, parts).map { attribute, part in
      guard let text = HTML.percentDecoded(part) else {
        // Text that is not UTF-8, written as its bytes (``WebLinks/keyPart(_:)``).
        if attribute.valueType == .string, let bytes = PercentEncoding.decodeBytes(part) {
          return .textBytes(Data(bytes))
        }
        throw WebError(.notFound, "no \(entity.name) with key \(segment)")
      }
      let notFound = WebError(.notFound, "no \(entity.name) with key \(text)")
      switch attribute.valueType {
      case .int:
        guard let number = Int(text) else { throw notFound }
        return .int(number)
      case .double:
        guard let number = Double(text) else { throw notFound }
        return .double(number)
      case .decimal:
        guard !text.isEmpty, let number = Decimal(string: text) else { throw notFound }
        return .decimal(number)
      case .bool:
        switch text.lowercased() {
        case "true", "1": return .bool(true)
        case "false", "0": return .bool(false)
        default: throw notFound
        }
      default: break
      }
      do {
        return try DatabaseValue.coerce(DatabaseValue.string(text), to: attribute)
      } catch {
        throw WebError(.notFound, "no \(entity.name) with key \(text)")
      }
    }
  }
}
