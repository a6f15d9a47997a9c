// A REPL with a third-party look, for `d2s-bench list`: its value component is a plugin's,
// declared to show one formatted value, so lists draw it on the same fast path as
// BasicLook's own. The benchmark compares its rental list with d2s-repl's.
import Components
import D2SREPL
import Plugins

/// A plugin look's plain value component: the value through its formatter.
struct LedgerValue: FormattedValueComponent {
  var body: some D2SView { FormattedValue() }
}

/// The look `LedgerLook`, holding `LedgerValue`; BasicLook provides every other component.
struct LedgerLookPlugin: D2SPlugin {
  let name = "LedgerLook"
  var components: [PluginComponent] { [PluginComponent(look: "LedgerLook", LedgerValue())] }
}

D2SREPLCommand.main(plugins: [LedgerLookPlugin()])
