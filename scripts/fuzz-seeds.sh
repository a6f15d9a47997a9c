#!/usr/bin/env bash
# fuzz-seeds.sh DIR: seed corpora for the fuzz targets (Fuzz/), taken from the tests and the
# demo rules, one file per input under DIR/<target>/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$1
rm -rf "$out"
mkdir -p "$out"/{qualifier,rules,command,literal,formatter,terminal,web}

# Writes each line of stdin as one seed file in DIR/$1 (with an optional prefix byte $2).
seeds() {
  local n=0
  while IFS= read -r line; do
    n=$((n + 1))
    if [ -n "${2:-}" ]; then printf "\\x$2%s" "$line"; else printf '%s' "$line"; fi >"$out/$1/seed-${2:-}$n"
  done
}
# The string literals of a call such as parse("…") in the test sources.
strings() { { grep -ohE "$1\(\"([^\"\\\\]|\\\\.)*\"" "$here"/Tests -r || true; } | sed -E "s/^$1\(\"//; s/\"$//; s/\\\\\"/\"/g"; }

rules=$(grep -hvE '^\s*(#|$)' "$here/data/demo.d2s")
{ strings 'parse'; strings 'parseQualifier'; sed -E 's/ =>.*//' <<<"$rules"; } | sort -u | seeds qualifier
{ echo "$rules"; strings 'parseRule'; strings 'rule'; } | sort -u | seeds rules
{ strings 'run'; strings 'CommandParser.parse'; } | sort -u | seeds command
# Literals: the values of assignments in commands, each for every attribute type (0…11).
values=$(strings 'run' | grep -oE "= .*" | sed 's/^= //' | sort -u)
for selector in 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 20; do seeds literal "$selector" <<<"$values"; done
# Formatter inputs from the tests, for each formatter (selector = formatter index).
texts=$({ grep -ohE 'parse\("[a-zA-Z]+", "[^"]*"' "$here"/Tests -r || true; } | sed -E 's/^parse\("[a-zA-Z]+", "//; s/"$//' | sort -u)
for selector in 00 01 02 03 04 05 06 07 08 13 1b 2a 35; do seeds formatter "$selector" <<<"$texts"; done
# Backticked names, in qualifiers, rules and commands (seed-q1, seed-q2, …).
quoted() {
  local n=0
  while IFS= read -r line; do n=$((n + 1)); printf '%s' "$line" >"$out/$1/seed-q$n"; done
}
printf '%s\n' "\`order\` = 1" "address.\`zip code\` like 'A*' AND \`and\` != nil" "\`2nd\` = \`not\`.\`in\`" |
  quoted qualifier
printf '%s\n' "\`order\` = 1 => title = \`user\`.name" "\`a b\` = 'x' => displayNameForEntity = 'y'" |
  quoted rules
printf '%s\n' "list T where \`order\` = 1 order by \`order\` desc, \`a.b\`" "list T order by \`x y\`" |
  quoted command
# Text for the terminal: the values of the stored-values fixtures, control characters and all.
printf 'line1\nline2\ttab\033[31mred\007' >"$out/terminal/seed-1"
printf 'bidi \u202eabc\x7f\xc2\x85' >"$out/terminal/seed-2"
printf 'plain text' >"$out/terminal/seed-3"
# Web requests (the first byte chooses: 00 a GET target, 01 a login form, 02 a cookie header,
# 03 an edit form of a logged-in session, 04 a position token, 05 an array text).
printf '%s\n' "Film?where=title%20like%20'A*'&order=length%20desc&limit=5" "Film/1/actors" \
  "FilmActor/1,1" "Film?order=title&after=1t1w3eplgwtx0.sACADEMY%20DINOSAUR,i1&offset=1" "Film/1/-/edit" \
  "Customer?where=address.phone%20like%20'1*'" | seeds web 00
printf '%s\n' "user=Mike&password=x&next=%2FFilm" "_csrf=x&user=&password=" | seeds web 01
printf '%s\n' "d2s_session=abc.def" "d2s_session=; d2s_login=x.y" | seeds web 02
printf '%s\n' "replacementCost=%2419.99&_shown.replacementCost=m20.99&_text.replacementCost=%2420.99" \
  "length=abc&_shown.length=i86&_text.length=86&_null.length=on" | seeds web 03
printf '%s\n' "sA,i1,n,d1.5,m2.50,b1,T1.5,xff,a%7Ba%2CNULL%7D" | seeds web 04
printf '%s\n' '{a,NULL,"b c","NULL"}' '{}' | seeds web 05
for target in qualifier rules command literal formatter terminal web; do
  echo "fuzz-seeds: $target: $(ls "$out/$target" | wc -l) seeds"
done
