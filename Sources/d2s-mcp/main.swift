import D2SMCP

MCPCommand.main()
