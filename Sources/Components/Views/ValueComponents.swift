/// Where a table puts a column's values.
public enum CellAlignment: Sendable, Equatable {
  /// At the start of the column (text, dates).
  case leading
  /// At the end of the column (numbers).
  case trailing
}

/// A component that shows its property's value through the column's formatter, and nothing
/// else (BasicLook's `DisplayString`, `DisplayNumber`, `DisplayDate`, …).
///
/// Declaring it is a promise that the component's cell is exactly the formatted value: a
/// list then makes the column's cells straight from the fetched values, without resolving
/// the component once per row (the fast path). Any look's component gets it by conforming:
///
/// ```swift
/// struct Amount: FormattedValueComponent {
///   var alignment: CellAlignment { .trailing }
///   var body: some D2SView { FormattedValue() }
/// }
/// ```
public protocol FormattedValueComponent: AlignedComponent {}

/// A component that declares where a table puts its column's values, whatever else it does:
/// one whose style depends on the value (and so is no ``FormattedValueComponent``, whose list
/// cells keep one style) can still be right-aligned:
///
/// ```swift
/// struct TrafficLight: AlignedComponent {
///   @Environment(\.propertyValue) var value
///   var alignment: CellAlignment { .trailing }
///   var body: some D2SView {
///     FormattedValue().foregroundStyle((value as? Int ?? 0) >= 5 ? .green : .red)
///   }
/// }
/// ```
public protocol AlignedComponent: D2SView {
  /// Where a table puts the values (numbers: trailing); leading unless declared.
  var alignment: CellAlignment { get }
}

extension AlignedComponent {
  /// Leading.
  public var alignment: CellAlignment { .leading }
}

/// A component that shows the title of the object its to-one leads to (BasicLook's
/// `DisplayToOne`), and nothing else: a list makes one cell per related object, from the
/// foreign keys it fetched, and never needs the row's own object.
public protocol RelatedTitleComponent: D2SView {}
