import AuditKeys
import CSVPlatform
import CompactLook
import D2SREPL
import RatingComponents

// A custom REPL: d2s-repl with four plugins installed.
D2SREPLCommand.main(plugins: [
  AuditKeysPlugin(), RatingComponentsPlugin(), CompactLookPlugin(), CSVPlatformPlugin(),
])
