{{subscription_source_drop}}
