long foo(long);
@@uft:*:a.out:foo:entry { @paths[stktrace()] = count(); }
@@uft:*:a.out:foo:exit { @out = count(); }
