App({});
