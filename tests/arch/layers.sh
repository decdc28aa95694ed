#!/bin/sh
# The include graph of src/, cli/ and include/domino against the layer table
# of docs/architecture.md (the fenced block marked `layers`):
#   NAME  PATH... | LAYER...
# A file belongs to the layer whose PATH (a folder ending in /, or a file)
# is its longest prefix; it may include headers of its own layer and of the
# layers after the bar, nothing else. `<libfdt.h>` counts as the layer
# `libfdt`. A file in no layer is an error too: a new folder takes a row.
# A quoted include of a file of another layer under src/ (a private header)
# must also be listed in the fenced block marked `private`:
#   PATH | LAYER...      (the layers that may include it; `all`: every one)
#   layers.sh [ROOT]     (default: the repository holding this script)
set -eu
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
exec perl -e '
use strict; use warnings;
my $doc = "docs/architecture.md";
open(my $d, "<", $doc) or die "$doc: $!\n";
my (@rows, %allow, %private, $in);
while (<$d>) {
	if (/^```(layers|private)\s*$/) { $in = $1; next; }
	if ($in && /^```/) { $in = undef; next; }
	next unless $in && /\S/;
	my ($l, $r) = split /\|/, $_, 2;
	if ($in eq "private") {
		my ($path) = split " ", $l;
		die "$doc:$.: expected PATH | LAYER...\n" unless defined $r && defined $path;
		$private{$path} = { map { $_ => 1 } split " ", $r };
		next;
	}
	my ($name, @paths) = split " ", $l;
	die "$doc:$.: expected NAME PATH... | LAYER...\n" unless defined $r && @paths;
	$allow{$name} = { map { $_ => 1 } $name, split " ", $r };
	push @rows, [$_, $name] for @paths;
}
die "$doc: no ```layers block\n" unless @rows;
for my $n (keys %allow) { for (keys %{$allow{$n}}) { die "$doc: $n may include $_, which is no layer\n" unless $allow{$_} || $_ eq "libfdt"; } }
sub layer_of {
	my ($f) = @_; my ($best, $len) = (undef, -1);
	for (@rows) {
		my ($p, $n) = @$_;
		my $hit = $p =~ m{/$} ? index($f, $p) == 0 : $f eq $p;
		($best, $len) = ($n, length $p) if $hit && length $p > $len;
	}
	return $best;
}
my ($bad, $files, $edges) = (0, 0, 0);
my @files = sort split /\n/, `find src cli include/domino -type f \\( -name "*.c" -o -name "*.h" \\) 2>/dev/null`;
for my $f (@files) {
	$files++;
	my $from = layer_of($f);
	if (!defined $from) { print "$f: in no layer of $doc\n"; $bad++; next; }
	open(my $h, "<", $f) or die "$f: $!\n";
	while (<$h>) {
		next unless /^\s*#\s*include\s*([<"])([^>"]+)[>"]/;
		my ($kind, $inc) = ($1, $2);
		my $target;
		if ($kind eq "<") {
			if ($inc =~ m{^domino/}) { $target = "include/$inc"; }
			elsif ($inc eq "libfdt.h" || $inc eq "fdt.h") { $target = "libfdt"; }
			else { next; }
		} else {
			(my $dir = $f) =~ s{[^/]*$}{};
			my $p = "$dir$inc";
			1 while $p =~ s{(^|/)(?!\.\./)[^/]+/\.\./}{$1};
			next unless -f $p;	# generated in the build tree (cli demo board)
			$target = $p;
		}
		my $to = $target eq "libfdt" ? "libfdt" : layer_of($target);
		next if !defined $to;
		$edges++;
		if ($allow{$from}{$to} && $kind eq "\"" && $to ne $from && $target =~ m{^src/}) {
			my $p = $private{$target};
			next if $p && ($p->{all} || $p->{$from});
			print "$f:$.: layer $from includes $inc, a private header of layer $to; ",
			    "$doc (```private) lets ", ($p ? join(" ", sort keys %$p) : "no other layer"), " include it\n";
			$bad++;
			next;
		}
		next if $allow{$from}{$to};
		print "$f:$.: layer $from includes $inc (layer $to); $doc lets $from include ",
		    join(" ", sort grep { $_ ne $from } keys %{$allow{$from}}) || "nothing else", "\n";
		$bad++;
	}
}
print "$files files, $edges includes inside the tree: ", ($bad ? "$bad against the layers" : "all follow the layers"), "\n";
exit($bad ? 1 : 0);
'
