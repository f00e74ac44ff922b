int work(int id);
__global long seen[long];
__global long twice[long];
@@uft:*:a.out:work:entry
{
  seen[__arg1] = 1;
  twice[__arg1] = 2;
  @calls[__arg1] = count();
  printf("%d %s\n", __arg1, "x");
}
