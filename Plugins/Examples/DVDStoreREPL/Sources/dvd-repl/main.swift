import AuditKeys
import CompactLook
import D2SREPL
import RatingComponents
import TSVPlatform

// A custom REPL: d2s-repl with four plugins installed.
D2SREPLCommand.main(plugins: [
  AuditKeysPlugin(), RatingComponentsPlugin(), CompactLookPlugin(), TSVPlatformPlugin(),
])
