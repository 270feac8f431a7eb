#!/usr/bin/env bash
# Seeds the fuzz corpora from the bundled content: every script in the games' RON files (the
# raw strings and the quoted strings that call something) for the script targets, and the RON
# files themselves for `ron_syntax` and `load`. Writes fuzz/corpus/<target>/, which is not
# committed; run it before `cargo fuzz run` (it only adds files).
set -euo pipefail
cd "$(dirname "$0")"
content=../content
for t in load ron_syntax script_parse script_check script_eval; do mkdir -p "corpus/$t"; done
for f in "$content"/*/*.ron "$content"/*/*/*.ron ../tests/fixtures/*/*.ron; do
    [ -f "$f" ] || continue
    name=$(printf '%s' "$f" | sed 's|^\.\./||; s|/|_|g')
    cp "$f" "corpus/ron_syntax/$name"
    cp "$f" "corpus/load/$name"
done
# Scripts: perl (its base, no modules) is on every machine git is on.
perl -0777 -e '
    my $n = 0;
    for my $file (@ARGV) {
        open(my $fh, "<", $file) or die "$file: $!";
        local $/;
        my $text = <$fh>;
        my @scripts;
        push @scripts, $1 while $text =~ /r#"(.*?)"#/sg;
        while ($text =~ /"((?:[^"\\\n]|\\.)*)"/g) {
            my $s = $1;
            next unless $s =~ /[a-z_]+\(/;
            $s =~ s/\\"/"/g;
            push @scripts, $s;
        }
        (my $base = $file) =~ s{^\.\./}{};
        $base =~ s{/}{_}g;
        my $i = 0;
        for my $s (@scripts) {
            $i++;
            for my $t (qw(script_parse script_check script_eval)) {
                open(my $out, ">", "corpus/$t/seed-$base-$i") or die $!;
                print $out $s;
                close $out;
            }
            $n++;
        }
    }
    print STDERR "$n scripts\n";
' "$content"/*/*.ron "$content"/*/*/*.ron
for t in load ron_syntax script_parse script_check script_eval; do
    echo "corpus/$t: $(ls "corpus/$t" | wc -l) files"
done
