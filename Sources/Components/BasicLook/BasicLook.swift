/// The builtin look: every page wrapper, page, row, property component and debug view of
/// SPEC §5, and the fallback for every component another look does not provide.
public enum BasicLook {
  public static let name = "BasicLook"

  /// Every BasicLook component by name, sorted (what the builtin plugin registers).
  public static var allComponents: [(name: String, component: any D2SView)] {
    components.keys.sorted().compactMap { name in components[name].map { (name, $0) } }
  }

  static let components: [String: any D2SView] = {
    var all: [String: any D2SView] = [
      "Navigation": NavigationWrapper(),
      "EntityList": EntityListPage(),
      "QueryList": QueryListPage(),
      "Inspect": InspectPage(editing: false),
      "Edit": InspectPage(editing: true),
      "ErrorPage": ErrorPage(),
      "Login": LoginPage(),
      "Select": SelectPage(),
      "PropertyNameValue": PropertyNameValueRow(),
      "PropertyNameAsTitle": PropertyNameAsTitleRow(),
      "PropertyValue": PropertyValueRow(),
      "NamedToManyLink": NamedToManyLinkRow(),
      "TitledSummary": TitledSummaryRow(),
      "DisplayBool": DisplayBool(),
      "DisplayLargeString": DisplayLargeString(),
      "DisplayPassword": DisplayPassword(),
      "DisplayToOne": DisplayToOne(),
      "DisplayToMany": DisplayToMany(),
      "DebugDatabaseInfo": DebugDatabaseInfo(),
      "DebugEntityInfo": DebugEntityInfo(),
      "DebugEntityDetails": DebugEntityDetails(),
      "DebugObjectEditInfo": DebugObjectEditInfo(),
    ]
    for name in ["DisplayString", "DisplayDate", "DisplayEmail", "DisplayURL"] {
      all[name] = DisplayValue()
    }
    all["DisplayNumber"] = DisplayValue(alignment: .trailing)
    for name in [
      "EditString", "EditLargeString", "EditNumber", "EditBool", "EditDate", "EditToOne",
    ] {
      all[name] = EditValue(kind: name)
    }
    return all
  }()
}
