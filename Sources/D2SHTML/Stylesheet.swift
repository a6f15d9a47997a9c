/// The one stylesheet, served from the binary at `/-/static/d2s.css`: readable on a phone
/// (tables scroll sideways, text wraps), in the system's light or dark colours.
package enum Stylesheet {
  package static let text = """
    :root { color-scheme: light dark; --line: #8884; --muted: #767676; --link: #0b62c4;
      --red: #c0392b; --green: #1e8449; --yellow: #856a00; }
    @media (prefers-color-scheme: dark) { :root { --muted: #a0a0a0; --link: #6cb0ff;
      --red: #ff7b6b; --green: #4cc77a; --yellow: #e0c050; } }
    * { box-sizing: border-box; }
    body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
    header { padding: .5rem 1rem; border-bottom: 1px solid var(--line); font-weight: 600;
      display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem; }
    form.inline { display: inline; }
    form.edit input:not([type]), form.edit input[inputmode], form.edit input[type="number"],
      form.edit input[type^="date"], form.edit textarea, form.edit select {
      font: inherit; width: min(32rem, 100%); }
    form.edit select { width: auto; max-width: min(32rem, 100%); }
    a.choose { margin-left: .5rem; }
    ul.candidates, ul.referring { padding-left: 1.2rem; }
    label.required::after { content: " *"; color: var(--red); }
    label.null { color: var(--muted); font-weight: normal; white-space: nowrap; }
    main { padding: 1rem; max-width: 80rem; }
    a { color: var(--link); }
    h1 { font-size: 1.5rem; margin: .2rem 0 1rem; overflow-wrap: break-word; white-space: pre-wrap; }
    table { border-collapse: collapse; display: block; overflow-x: auto; max-width: 100%; }
    th, td { padding: .3rem .6rem; border-bottom: 1px solid var(--line); text-align: left;
      vertical-align: top; white-space: pre-wrap; overflow-wrap: break-word; }
    thead th { position: sticky; top: 0; background: Canvas; }
    th a { text-decoration: none; }
    th[aria-sort="ascending"] a::after { content: " ▲"; }
    th[aria-sort="descending"] a::after { content: " ▼"; }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    table.properties th { font-weight: 600; color: var(--muted); }
    table.properties td { overflow-wrap: anywhere; }
    .total, .hint { color: var(--muted); }
    a.why { font-size: 0.75em; font-weight: normal; color: var(--muted); margin-left: 0.3em; }
    .pager a { display: inline-block; padding: .3rem .8rem; margin-right: .5rem;
      border: 1px solid var(--line); border-radius: .3rem; text-decoration: none; }
    form.filter { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
    form.filter label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
    form.filter input { font: inherit; padding: .25rem .4rem; min-width: 6rem; }
    form.filter input[name="where"] { min-width: min(24rem, 80vw); }
    form.search { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-bottom: .5rem; }
    form.search label, form.query label { margin-right: .3rem; }
    form.query fieldset { margin-bottom: .6rem; }
    form.query input, form.query select { margin-right: .8rem; }
    aside.facets { display: flex; flex-wrap: wrap; gap: 1rem 2rem; margin: 1rem 0; }
    .facet h2 { font-size: 1rem; margin: 0 0 .3rem; }
    .facet ul { list-style: none; margin: 0; padding: 0; }
    .facet .count { color: var(--muted); font-variant-numeric: tabular-nums; }
    .error { color: var(--red); font-weight: 600; }
    ul.entities { columns: 14rem; padding-left: 1.2rem; }
    .text, .message { white-space: pre-wrap; }
    footer.debug { margin-top: 2rem; color: var(--muted); }
    .s-bold { font-weight: 700; }
    .s-italic { font-style: italic; }
    .s-monospaced { font-family: ui-monospace, monospace; }
    .s-red { color: var(--red); }
    .s-green { color: var(--green); }
    .s-yellow { color: var(--yellow); }
    .s-secondary { color: var(--muted); }
    fieldset.section, fieldset.tab { border: 1px solid var(--line); border-radius: .3rem;
      margin: 0 0 1rem; padding: .3rem .6rem; min-width: 0; }
    fieldset.section legend, fieldset.tab legend { font-weight: 600; padding: 0 .3rem; }
    section.section h2, section.tab h2 { font-size: 1.1rem; margin: 1rem 0 .3rem; }
    nav.tabs { display: flex; flex-wrap: wrap; gap: .3rem; margin: .5rem 0 0;
      border-bottom: 1px solid var(--line); }
    nav.tabs a { padding: .3rem .8rem; border: 1px solid var(--line); border-bottom: none;
      border-radius: .3rem .3rem 0 0; text-decoration: none; }
    .tabbed > .tab:not(:first-child) { display: none; }
    .tabbed > .tab:target { display: block; }
    .tabbed:has(> .tab:target) > .tab:first-child:not(:target) { display: none; }
    nav.breadcrumb { margin-bottom: .5rem; color: var(--muted); overflow-wrap: anywhere; }
    p.saved { color: var(--green); font-weight: 600; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
      clip: rect(0 0 0 0); white-space: nowrap; }
    ul.linked { padding-left: 1.2rem; }
    ul.linked li, ul.candidates li { margin: .2rem 0; }

    """
}
