int work(int id);
@@uft:*:a.out:work:entry
{
  @calls[__arg1] = count();
}
