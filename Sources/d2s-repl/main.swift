import D2SREPL

D2SREPLCommand.main()
