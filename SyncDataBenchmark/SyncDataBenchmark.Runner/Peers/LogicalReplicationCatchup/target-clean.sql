{{subscription_target_drop}}
