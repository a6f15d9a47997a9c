import Components
import D2SModel

/// An edit form as the page shows it: where it posts, its CSRF token, and, when it is shown
/// again, what the user typed, the values they were shown, and what was wrong.
package struct WebForm: Sendable {
  /// The URL the form posts to.
  package var action: String
  /// The `_csrf` token bound to the session.
  package var csrf: String
  /// The text typed, by property key (a form shown again).
  package var typed: [String: String] = [:]
  /// Keys the user set to NULL.
  package var nulls: Set<String> = []
  /// The values the user was first shown, as position tokens (`_shown.KEY`), by key.
  package var shown: [String: String] = [:]
  /// The text the user was first shown (`_text.KEY`), by key.
  package var shownText: [String: String] = [:]
  /// What is wrong with a field, by key.
  package var errors: [String: String] = [:]
  /// A message above the form (a constraint the database refused).
  package var message: String?
  /// Whether the save failed because the database was busy (shown again with 503).
  package var isBusy = false
  /// The inspect page, for Cancel.
  package var cancel: String
  /// The control of each field, by key (a text input when none).
  package var widgets: [String: FieldWidget] = [:]
  /// The one-time token of a new object's form (`_once`), against a double submit.
  package var once: String?
  /// Inputs for the key of a new object whose key the database does not make, in order.
  package var keyFields: [(key: String, label: String)] = []

  /// A form posting to `action` with `csrf`, Cancel leading to `cancel`.
  package init(action: String, csrf: String, cancel: String) {
    self.action = action
    self.csrf = csrf
    self.cancel = cancel
  }
}
