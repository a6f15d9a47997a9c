import Components
import D2SREPL
import D2STesting
import Plugins
import Testing

/// The README's "Writing a plugin" component, verbatim, built in a package outside D2S and
/// picked by a rule.
enum Readme {
  public struct DisplayStars: D2SView {
    @Environment(\.propertyValue) var value
    public init() {}
    public var body: some D2SView {
      let stars = min(max((value as? Int) ?? 0, 0), 5)
      Text(String(repeating: "★", count: stars) + String(repeating: "☆", count: 5 - stars))
    }
  }

  public struct StarsPlugin: D2SPlugin {
    public init() {}
    public let name = "Stars"
    public var components: [PluginComponent] {
      [PluginComponent(look: "BasicLook", DisplayStars())]
    }
    public var ruleText: String? { "propertyKey = 'rentalDuration' => component = 'DisplayStars'" }
  }
}

@Suite struct ReadmeComponentTests {
  @Test func theReadmeComponentIsPickedByItsRule() throws {
    let session = try REPLSession(plugins: [Readme.StarsPlugin()])
    _ = try session.run("open \(try SakilaSQLite.copy())")
    #expect(try session.run("inspect Film 1").contains("Rental Duration    ★★★★★\n"))
    let list = try session.run("list Film order by id limit 2")
    #expect(list.contains("ACADEMY DINOSAUR") && list.contains("★★★★★") && list.contains("★★★☆☆"))
  }
}
