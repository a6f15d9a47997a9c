/// The builtin default rule model (SPEC §2 and §5), as rule text: it prints and explains like
/// any rule. It is the last fallback model, after the user's and the plugins' rules.
enum DefaultRules {
  static let text = #"""
    # Pages by task
    task = 'query' => page = 'EntityList'
    task = 'list' => page = 'QueryList'
    task = 'inspect' => page = 'Inspect'
    task = 'edit' => page = 'Edit'
    task = 'select' => page = 'Select'
    task = 'login' => page = 'Login'
    *true* => page = 'ErrorPage' ; fallback
    *true* => pageWrapper = 'Navigation'

    # Rows by task and relationship kind
    task = 'list' => rowComponent = 'TitledSummary' ; 1
    task = 'select' => rowComponent = 'TitledSummary' ; 1
    task = 'edit' => rowComponent = 'PropertyNameValue' ; 1
    relationship.kind = 'toMany' => rowComponent = 'NamedToManyLink' ; fallback
    relationship.kind = 'toOne' => rowComponent = 'PropertyNameValue' ; fallback
    *true* => rowComponent = 'PropertyNameValue' ; fallback

    # Property components: editing (passwords are never edited or shown)
    task = 'edit' AND attribute.isPassword = true => component = 'DisplayPassword' ; 4
    task = 'edit' AND relationship.kind = 'toMany' => component = 'DisplayToMany' ; 3
    task = 'edit' AND relationship.kind = 'toOne' => component = 'EditToOne' ; 3
    task = 'edit' AND attribute.valueType = 'Date' => component = 'EditDate' ; 3
    task = 'edit' AND attribute.valueType = 'Bool' => component = 'EditBool' ; 3
    task = 'edit' AND attribute.valueType in ('Int', 'Double', 'Decimal') => component = 'EditNumber' ; 3
    task = 'edit' AND attribute.valueType = 'String' AND attribute.width = nil => component = 'EditLargeString' ; 3
    task = 'edit' => component = 'EditString' ; 3
    # Property components: display
    attribute.isPassword = true => component = 'DisplayPassword' ; 2
    relationship.kind = 'toMany' => component = 'DisplayToMany' ; 2
    relationship.kind = 'toOne' => component = 'DisplayToOne' ; 2
    attribute.valueType = 'Date' => component = 'DisplayDate' ; 1
    attribute.valueType = 'Bool' => component = 'DisplayBool' ; 1
    attribute.valueType in ('Int', 'Double', 'Decimal') => component = 'DisplayNumber' ; 1
    attribute.valueType = 'String' AND attribute.isPassword = false AND attribute.name ilike '*email*' => component = 'DisplayEmail' ; 2
    attribute.valueType = 'String' AND attribute.isPassword = false AND attribute.name ilike '*url' => component = 'DisplayURL' ; 1
    attribute.valueType = 'String' AND attribute.width = nil => component = 'DisplayLargeString' ; 1
    *true* => component = 'DisplayString' ; fallback

    # Formatters by value type
    attribute.valueType = 'Int' => formatter = 'integer' ; fallback
    attribute.valueType in ('Decimal', 'Double') => formatter = 'decimal' ; fallback
    attribute.valueType = 'Date' AND attribute.dateKind = 'date' => formatter = 'date' ; fallback
    attribute.valueType = 'Date' AND attribute.dateKind = 'time' => formatter = 'time' ; fallback
    attribute.valueType = 'Date' => formatter = 'dateTime' ; fallback

    # Model, property and value from the context
    *true* => model = @model
    *true* => attribute = @attributeForPropertyKey
    *true* => relationship = @relationshipForPropertyKey
    *true* => propertyValue = @propertyValue
    task = 'login' => entity = @userEntity

    # Titles and display names
    *true* => title = @objectDefaultTitle ; 3
    entity.name != nil => title = displayNameForEntity ; 2
    database.name != nil => title = database.name ; 1
    task = 'login' => navigationBarTitle = 'Login'
    *true* => navigationBarTitle = title
    *true* => displayNameForEntity = entity.name
    *true* => displayNameForProperty = @prettyPropertyKey
    task = 'edit' => displayStringForNil = ''
    task = 'edit' => hideEmptyProperty = false

    # Property keys per task, visible entities
    task = 'inspect' => displayPropertyKeys = @inspectPropertyKeys
    task = 'edit' => displayPropertyKeys = @editPropertyKeys
    *true* => displayPropertyKeys = @listPropertyKeys
    *true* => visibleEntityNames = @visibleEntityNames

    # Flow
    task = 'login' => nextTask = 'query'
    task = 'query' => nextTask = 'list'
    task = 'list' => nextTask = 'inspect'
    task = 'inspect' => nextTask = 'edit'

    # Permissions
    *true* => isEntityReadOnly = @isEntityReadOnly
    *true* => isObjectEditable = NOT isEntityReadOnly
    *true* => isObjectDeletable = isObjectEditable
    # Agents' changes are proposals a person approves, unless a rule says otherwise
    client = 'mcp' => agentWrites = 'propose' ; fallback

    # Debug views
    debug = true AND (task = 'list' OR task = 'select') => debugComponent = 'DebugEntityInfo'
    debug = true AND task = 'inspect' => debugComponent = 'DebugEntityDetails'
    debug = true AND task = 'edit' => debugComponent = 'DebugObjectEditInfo'
    debug = true => debugComponent = 'DebugDatabaseInfo'

    # Exactly what is stored: money as money, and every property of a page in JSON, nil ones too
    attribute.valueType = 'Decimal' AND attribute.externalType = 'money' => formatter = 'currency' ; fallback
    platform = 'json' => hideEmptyProperty = false
    """#
}
