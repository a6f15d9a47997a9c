import D2SModel
import EnvKeys

/// The control an edit form shows for one field, chosen from the rules' component and the
/// column: a number, date or date-time input, a checkbox, a textarea, a select of the values
/// a column allows or of a to-one's candidates (a link to the choose page when they are many),
/// or text.
package struct FieldWidget: Sendable {
  /// What kind of control.
  package enum Kind: Sendable, Equatable {
    case text
    case textarea
    /// A number; `step` is the input's (`1`, `0.01`, `any`).
    case number(step: String)
    case date
    case dateTime
    case checkbox
    /// A select of the values the column allows (an enum, a `CHECK (… IN (…))`).
    case choice([String])
    /// A to-one: a select of its candidates, or (when they are many) its key typed, beside a
    /// link to the choose page.
    case toOne(options: [Option]?, choose: String)
    /// An array, typed as PostgreSQL writes one (`{7,8}`).
    case array
    /// JSON text, checked before it is saved.
    case json

    /// Whether an empty control means no value (a number, a date, a choice, a to-one), not
    /// the empty text.
    package var emptyIsNoValue: Bool {
      switch self {
      case .number, .date, .dateTime, .choice, .toOne: true
      case .text, .textarea, .checkbox, .array, .json: false
      }
    }
  }

  /// One option of a select: the value posted and the text shown.
  package struct Option: Sendable, Equatable {
    package let value: String
    package let label: String

    /// An option posting `value`, showing `label`.
    package init(value: String, label: String) {
      self.value = value
      self.label = label
    }
  }

  package var kind: Kind
  /// The text the field starts with, when not the view's (a to-one's key, an array's text).
  package var text: String?
  /// The value the field stands for, when not the view's (a to-one's foreign key).
  package var value: DatabaseValue?

  /// A control of `kind`.
  package init(kind: Kind, text: String? = nil, value: DatabaseValue? = nil) {
    self.kind = kind
    self.text = text
    self.value = value
  }
}
