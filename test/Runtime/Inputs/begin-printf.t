@@BEGIN
{
  printf("%s %d\n", "begin", 1);
  exit();
}
