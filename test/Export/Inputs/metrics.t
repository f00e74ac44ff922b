/* Every kind of aggregation, keyed and not, for the /metrics test. */
long work(long n, char *name);

@@uft:*:a.out:work:entry
{
    @calls[get_userstring(__arg2)] = count();
    @total = sum(__arg1);
    @smallest = min(__arg1);
    @largest = max(__arg1);
    @mean = avg(__arg1);
    @st[__datamodel] = stats(__arg1);
    @pow = hist(__arg1);
    @lin[get_userstring(__arg2)] = lhist(__arg1, 0, 20, 5);
}
